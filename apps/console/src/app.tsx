/**
 * The console: providers (query cache, i18n, auth), the route by path, and the shell — header, inbox, and the
 * conversation at `/conversations/:id`.
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense, useEffect } from 'react'
import { AdminArea, AdminNavLinks, isAdminPath } from './features/admin-shell/index.ts'
import { Inbox } from './features/inbox/index.tsx'
import { LoginPage } from './features/login/login-page.tsx'
import { NotificationControls } from './features/notifications/index.ts'
import { KeyboardLayer } from './features/palette/index.tsx'
import { PresenceControl } from './features/presence/index.ts'
import { ConversationArea } from './features/shell/conversation-area.tsx'
import { Header } from './features/shell/header.tsx'
import { AuthProvider, useAuth } from './lib/auth.tsx'
import { hub } from './lib/hub.ts'
import { I18nProvider, useI18n } from './lib/i18n.tsx'
import { queryClient } from './lib/query.ts'
import { Link, matchPath, usePath } from './lib/router.tsx'
import { Loading } from './ui/status.tsx'
import './features/shell/messages.ts'
import './features/tickets/messages.ts'

// the tickets screen is its own chunk: the first load (the inbox) does not carry it
const TicketsScreen = lazy(async () => ({ default: (await import('./features/tickets/index.tsx')).TicketsScreen }))
// the set-password page (a one-time link's destination) likewise
const SetPasswordPage = lazy(async () => ({
  default: (await import('./features/set-password/index.tsx')).SetPasswordPage,
}))

/** The shell's navigation between the inbox and the tickets screen. */
function Nav({ path }: { path: string }) {
  const { t } = useI18n()
  const onTickets = path === '/tickets' || path.startsWith('/tickets/')
  return (
    <nav aria-label={t('tickets.nav.label')} className="shell-nav">
      <Link href="/" aria-current={onTickets || isAdminPath(path) ? undefined : 'page'}>
        {t('tickets.nav.inbox')}
      </Link>
      <Link href="/tickets" aria-current={onTickets ? 'page' : undefined}>
        {t('tickets.nav')}
      </Link>
      <AdminNavLinks path={path} />
    </nav>
  )
}

function Shell() {
  const path = usePath()
  const { t } = useI18n()
  const conversationId = matchPath('/conversations/:id', path)?.id ?? null
  const ticketId = matchPath('/tickets/:id', path)?.id ?? null
  const onTickets = path === '/tickets' || ticketId !== null
  // one socket for the signed-in console; closed on log out (the shell unmounts)
  useEffect(() => {
    hub.start()
    return () => hub.stop()
  }, [])
  return (
    <div className="shell">
      <Header>
        <PresenceControl />
        <NotificationControls />
      </Header>
      <Nav path={path} />
      {isAdminPath(path) ? (
        <main className="shell-main shell-admin">
          <Suspense fallback={<Loading label={t('shell.loading')} />}>
            <AdminArea path={path} />
          </Suspense>
        </main>
      ) : onTickets ? (
        <main className="shell-main shell-tickets">
          <Suspense fallback={<Loading label={t('shell.loading')} />}>
            <TicketsScreen id={ticketId} />
          </Suspense>
        </main>
      ) : (
        <main className="shell-main">
          <Inbox selectedId={conversationId} />
          <ConversationArea id={conversationId} />
        </main>
      )}
      <KeyboardLayer />
    </div>
  )
}

function Routes() {
  const { status } = useAuth()
  const { t } = useI18n()
  const path = usePath()
  // the one-time link's page is for its recipient, signed in or not
  if (path === '/set-password') {
    return (
      <Suspense fallback={<Loading label={t('shell.loading')} />}>
        <SetPasswordPage />
      </Suspense>
    )
  }
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
