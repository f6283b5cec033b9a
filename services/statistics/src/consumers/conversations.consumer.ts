import { ConversationEvents } from '@switchboard/contracts'
import { type ConsumerDef, versionOf } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { countMessage, projectSession } from '../db/conversations.repository.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import { dayOf, quarterHourOf } from '../domain/dates.ts'
import { payload } from './payload.ts'
import { scopeOfEvent } from './scope.ts'

export const CONVERSATIONS_PROJECTION = 'statistics-conversations'

const SESSION_EVENTS = new Set<string>([
  ConversationEvents.sessionCreated.type,
  ConversationEvents.sessionClosed.type,
  ConversationEvents.sessionReopened.type,
  ConversationEvents.sessionLinked.type,
])
const SESSION_WRAPPED = new Set<string>([
  ConversationEvents.sessionAssigned.type,
  ConversationEvents.sessionTransferred.type,
])

/**
 * conversations' events → sessions (status, created_at = started_at) and message counts per scope and quarter hour,
 * and DailyStats' total_sessions (a session's first event) and total_messages (each message, on its own day).
 * Every session event carries the session whole, so the newest wins; each event is applied once (inbox).
 */
export const conversationsProjection: ConsumerDef<StatisticsService> = {
  durable: CONVERSATIONS_PROJECTION,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.>'],
  idempotency: 'inbox',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  async handle(svc, { envelope }, tx) {
    const isSession = SESSION_EVENTS.has(envelope.type) || SESSION_WRAPPED.has(envelope.type)
    if (!isSession && envelope.type !== ConversationEvents.messageCreated.type) return // the queue's events
    const scope = scopeOfEvent(envelope)
    if (!scope) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
    const now = new Date().toISOString()
    if (envelope.type === ConversationEvents.messageCreated.type) {
      const m = payload(ConversationEvents.messageCreated, envelope.data)
      await countMessage(tx.db, scope, m.created_at, quarterHourOf(m.created_at))
      await bumpDaily(tx.db, dayOf(m.created_at), 'total_messages', now)
      return
    }
    const s = SESSION_WRAPPED.has(envelope.type)
      ? payload(ConversationEvents.sessionAssigned, envelope.data).session
      : payload(ConversationEvents.sessionCreated, envelope.data)
    const createdAt = new Date(s.started_at).toISOString()
    const made = await projectSession(tx.db, svc.dialect, {
      session_id: s.session_id,
      ...scope,
      status: s.status,
      created_at: createdAt,
      ...versionOf(envelope),
    })
    if (made) await bumpDaily(tx.db, dayOf(createdAt), 'total_sessions', now)
  },
}
