/**
 * The main area's conversation: the conversation feature's `ConversationView` when the build has it (loaded lazily
 * — the first screen does not need it), else a placeholder region with the same name.
 */
import { type ComponentType, lazy, Suspense } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { Icon } from '../../ui/icon.tsx'
import { Loading } from '../../ui/status.tsx'
import './messages.ts'

type View = ComponentType<{ id: string }>
const modules = import.meta.glob<{ ConversationView: View }>('../conversation/index.tsx')
const load = Object.values(modules)[0]
const ConversationView = load ? lazy(async () => ({ default: (await load()).ConversationView })) : null

export function ConversationArea({ id }: { id: string | null }) {
  const { t } = useI18n()
  if (id && ConversationView) {
    return (
      <div className="shell-pane">
        <Suspense fallback={<Loading label={t('shell.loading')} />}>
          <ConversationView key={id} id={id} />
        </Suspense>
      </div>
    )
  }
  return (
    <section aria-label={t('shell.conversation')} className="placeholder shell-empty">
      <Icon name="inbox" />
      <span>{id ? t('shell.conversation.unavailable') : t('shell.conversation.none')}</span>
    </section>
  )
}
