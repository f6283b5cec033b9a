/**
 * CSAT at close (loaded when the conversation closes): five labelled choices and an optional comment, sent as
 * `POST /public/widget/sessions/:id/satisfaction` with the visitor credential; stored as a satisfaction of the
 * conversation. Already given (409) counts as done; a conversation reopened meanwhile (409 not closed) just hides it.
 */
import { useState } from 'preact/hooks'
import { ApiError, call, json } from '../../lib/api.ts'
import { addStrings, useI18n } from '../../lib/i18n.ts'
import { useChat } from '../../lib/use-chat.ts'

addStrings({
  en: {
    'csat.title': 'How was your conversation?',
    'csat.1': '1 – Very poor',
    'csat.2': '2 – Poor',
    'csat.3': '3 – Okay',
    'csat.4': '4 – Good',
    'csat.5': '5 – Excellent',
    'csat.comment': 'Comment (optional)',
    'csat.send': 'Send rating',
    'csat.thanks': 'Thank you for your feedback!',
    'csat.failed': 'The rating could not be sent ({code}). Please try again.',
  },
  'zh-CN': {
    'csat.title': '您对本次服务满意吗？',
    'csat.1': '1 – 非常不满意',
    'csat.2': '2 – 不满意',
    'csat.3': '3 – 一般',
    'csat.4': '4 – 满意',
    'csat.5': '5 – 非常满意',
    'csat.comment': '评价（可选）',
    'csat.send': '提交评价',
    'csat.thanks': '感谢您的反馈！',
    'csat.failed': '评价提交失败（{code}），请重试。',
  },
})

export function CsatForm({ sessionId }: { sessionId: string }) {
  const { t } = useI18n()
  const [chat, store] = useChat()
  const [rating, setRating] = useState<number | null>(null)
  const [comment, setComment] = useState('')
  const [state, setState] = useState<'idle' | 'sending' | { error: string }>('idle')

  if (chat.thanked)
    return (
      <p class="notice" role="status">
        {t('csat.thanks')}
      </p>
    )

  const submit = async (e: Event) => {
    e.preventDefault()
    if (!rating) return
    setState('sending')
    try {
      await call(
        `/public/widget/sessions/${encodeURIComponent(sessionId)}/satisfaction`,
        json(
          { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) },
          { 'x-visitor-credential': store.visitorCredential ?? '' },
        ),
      )
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'NETWORK'
      // reopened meanwhile: nothing to rate now (asked again at the next close)
      if (code.endsWith('SESSION_NOT_CLOSED')) return store.setRated(false)
      if (!code.endsWith('SATISFACTION_ALREADY_GIVEN')) return setState({ error: code })
    }
    // the thank-you shows until the conversation goes on; a reload does not ask again
    store.setRated(true)
  }

  return (
    <form class="csat" onSubmit={submit}>
      <fieldset>
        <legend>{t('csat.title')}</legend>
        <div class="choices">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n}>
              <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} />
              {t(`csat.${n}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label for="csat-comment">{t('csat.comment')}</label>
      <textarea id="csat-comment" rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
      {typeof state === 'object' && (
        <p class="upload-error" role="alert">
          {t('csat.failed', { code: state.error })}
        </p>
      )}
      <button type="submit" class="primary" disabled={!rating || state === 'sending'}>
        {t('csat.send')}
      </button>
    </form>
  )
}
