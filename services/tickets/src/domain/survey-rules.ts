/** Satisfaction survey rules, pure (services/tickets/README.md, Satisfaction). */

/** A survey link answers for seven days (the earlier system's rule) unless the workspace sets another number. */
export const SURVEY_EXPIRY_DAYS = 7
export const SURVEY_TTL_MS = SURVEY_EXPIRY_DAYS * 86_400_000

export const SURVEY_STATUSES = ['queued', 'sent', 'completed', 'expired'] as const
export type SurveyStatus = (typeof SURVEY_STATUSES)[number]
export const SURVEY_CHANNELS = ['chat', 'voice', 'email'] as const

/** The channel that reaches the customer, by where the ticket came from: chat/im → chat, voice/phone → voice. */
export function surveyChannel(source: string): string {
  const s = source.trim().toLowerCase()
  if (s === 'chat' || s === 'im') return 'chat'
  if (s === 'voice' || s === 'phone') return 'voice'
  return 'email'
}

/** Where a survey stands at `now`: one past its expiry answers as expired even before anyone wrote it so. */
export function surveyStatusAt(s: { status: string; expires_at: string }, now: Date): string {
  if (s.status === 'sent' || s.status === 'queued') {
    return now.getTime() > new Date(s.expires_at).getTime() ? 'expired' : s.status
  }
  return s.status
}

/**
 * The survey page's path for a token (the HTML page a customer opens, csat-page.routes.ts; its JSON twin is
 * `/public/csat/<token>`); the gateway's public origin goes before it.
 */
export const surveyLink = (token: string) => `/csat/${token}`
