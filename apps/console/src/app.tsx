/**
 * The console: providers (query cache, i18n, auth), the route by path, and the shell — header, inbox, and the
 * conversation at `/conversations/:id`.
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Inbox } from './features/inbox/index.tsx'
import { LoginPage } from './features/login/login-page.tsx'
import { ConversationArea } from './features/shell/conversation-area.tsx'
import { Header } from './features/shell/header.tsx'
import { AuthProvider, useAuth } from './lib/auth.tsx'
import { hub } from './lib/hub.ts'
import { I18nProvider, useI18n } from './lib/i18n.tsx'
import { queryClient } from './lib/query.ts'
import { matchPath, usePath } from './lib/router.tsx'
import { Loading } from './ui/status.tsx'
import './features/shell/messages.ts'

function Shell() {
  const path = usePath()
  const conversationId = matchPath('/conversations/:id', path)?.id ?? null
  // one socket for the signed-in console; closed on log out (the shell unmounts)
  useEffect(() => {
    hub.start()
    return () => hub.stop()
  }, [])
  return (
    <div className="shell">
      <Header />
      <main className="shell-main">
        <Inbox selectedId={conversationId} />
        <ConversationArea id={conversationId} />
      </main>
    </div>
  )
}

function Routes() {
  const { status } = useAuth()
  const { t } = useI18n()
  if (status === 'restoring') return <Loading label={t('shell.loading')} />
  if (status === 'anonymous') return <LoginPage />
  return <Shell />
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <AuthProvider>
          <Routes />
        </AuthProvider>
      </I18nProvider>
    </QueryClientProvider>
  )
}
