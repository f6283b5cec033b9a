/**
 * The frame's app: branding and the workspace's widget settings from the portal configuration, then the pre-chat
 * form, the away/offline view (nobody online, no conversation yet) or the chat itself.
 */
import { useEffect, useMemo, useState } from 'preact/hooks'
import { ChatView } from './features/chat/chat-view.tsx'
import { Header } from './features/chat/header.tsx'
import { OfflineView } from './features/offline/offline-view.tsx'
import { PrechatForm } from './features/prechat/prechat-form.tsx'
import { availability, type Portal, portalConfig } from './lib/api.ts'
import { applyBrand } from './lib/brand.ts'
import type { ChatStore } from './lib/chat-store.ts'
import { I18n, pickLocale, translator } from './lib/i18n.ts'
import type { FrameParams } from './lib/params.ts'
import type { LoaderLink } from './lib/parent.ts'
import { loadVisitor, saveVisitor, type Visitor } from './lib/storage.ts'
import { Chat, useChat } from './lib/use-chat.ts'

const DEFAULT_COLOR = '#2563eb'

interface Props {
  params: FrameParams
  store: ChatStore
  link: LoaderLink
  /** start the socket (at once when a conversation exists, else with the first message) */
  connect(): void
}

export function App({ params, store, link, connect }: Props) {
  const [portal, setPortal] = useState<Portal | null>(null)
  const [open, setOpenAgents] = useState(true)
  const locale = pickLocale(params.locale, portal?.default_locale, navigator.language)
  const i18n = useMemo(() => ({ locale, t: translator(locale) }), [locale])

  useEffect(() => {
    Promise.all([
      portalConfig(params.tenantId, params.workspaceId).catch((): Portal => ({})),
      availability(params.tenantId, params.workspaceId),
    ]).then(([p, online]) => {
      if (!applyBrand(params.color)) applyBrand(p.primary_color) || applyBrand(DEFAULT_COLOR)
      setOpenAgents(online)
      setPortal(p)
    })
  }, [params])

  useEffect(() => {
    document.documentElement.lang = locale
    document.title = i18n.t('header.title', { name: portal?.brand_name ?? '' })
  }, [locale, portal, i18n])

  return (
    <I18n.Provider value={i18n}>
      <Chat.Provider value={store}>
        <div class="widget">
          <Header portal={portal} link={link} />
          {portal ? (
            <Body params={params} portal={portal} agentsOnline={open} connect={connect} />
          ) : (
            <div class="body" />
          )}
        </div>
      </Chat.Provider>
    </I18n.Provider>
  )
}

function Body(props: { params: FrameParams; portal: Portal; agentsOnline: boolean; connect(): void }) {
  const { params, portal, agentsOnline, connect } = props
  const [state] = useChat()
  const [visitor, setVisitor] = useState<Visitor | null>(() => loadVisitor(params.tenantId, params.workspaceId))
  const [chatAnyway, setChatAnyway] = useState(false)
  const prechat = portal.widget?.prechat ?? 'off'
  const started = state.sessionId !== null || state.pending.length > 0

  if (!started && !agentsOnline && !chatAnyway)
    return (
      <OfflineView
        params={params}
        visitor={visitor}
        message={portal.widget?.offline_message ?? null}
        onChat={() => setChatAnyway(true)}
      />
    )
  if (!started && prechat !== 'off' && !visitor?.name)
    return (
      <PrechatForm
        email={prechat === 'name_email'}
        onDone={(v) => {
          saveVisitor(params.tenantId, params.workspaceId, v)
          setVisitor(v)
        }}
      />
    )
  return <ChatView greeting={portal.widget?.greeting ?? null} visitor={visitor} connect={connect} />
}
