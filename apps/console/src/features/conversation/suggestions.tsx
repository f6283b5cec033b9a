/** Suggested replies from `/api/assist/suggest` for the customer's last words, each inserted with one click. */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { keys, suggest } from './api.ts'

export function Suggestions({
  sessionId,
  query,
  onPick,
}: {
  sessionId: string
  query: string
  onPick(text: string): void
}) {
  const { t } = useI18n()
  const found = useQuery({
    queryKey: keys.suggest(sessionId, query),
    queryFn: () => suggest(query),
    enabled: query.trim().length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const texts = [
    ...(found.data?.knowledge_docs ?? []).map((d) => t('conversation.suggestion.doc', { title: d.title })),
    ...(found.data?.similar_tickets ?? []).map((s) => t('conversation.suggestion.ticket', { title: s.title })),
  ].slice(0, 4)
  if (texts.length === 0) return null
  return (
    <section className="suggestions" aria-label={t('conversation.suggestions')}>
      <h3 className="suggestions-title">{t('conversation.suggestions')}</h3>
      <ul>
        {texts.map((text) => (
          <li key={text}>
            <button
              type="button"
              onClick={() => onPick(text)}
              aria-label={t('conversation.suggestion.insert', { text })}
            >
              {text}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
