import { ConversationEvents, type SessionFacts } from '@switchboard/contracts'
import { type ConsumerDef, versionOf } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { countMessage, projectSession } from '../db/conversations.repository.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import { dayOf, quarterHourOf } from '../domain/dates.ts'
import { payload } from './payload.ts'
import { scopeOfEvent } from './scope.ts'

export const CONVERSATIONS_PROJECTION = 'statistics-conversations'

const C = ConversationEvents

/**
 * The session facts of each session event, read through that event's own contract: the whole payload, or its
 * `session` (assigned, transferred, released each have a shape of their own around it). One contract per type, so an
 * event is never checked against another's (a transfer checked as an assignment failed on `previous_agent_id` and
 * was dead-lettered).
 */
const SESSION_OF: ReadonlyMap<string, (data: unknown) => SessionFacts> = new Map([
  [C.sessionCreated.type, (d: unknown) => payload(C.sessionCreated, d)],
  [C.sessionClosed.type, (d: unknown) => payload(C.sessionClosed, d)],
  [C.sessionReopened.type, (d: unknown) => payload(C.sessionReopened, d)],
  [C.sessionLinked.type, (d: unknown) => payload(C.sessionLinked, d)],
  [C.sessionAssigned.type, (d: unknown) => payload(C.sessionAssigned, d).session],
  [C.sessionTransferred.type, (d: unknown) => payload(C.sessionTransferred, d).session],
  [C.sessionReleased.type, (d: unknown) => payload(C.sessionReleased, d).session],
])

/**
 * conversations' events → sessions (status, created_at = started_at: a release leaves its session active with no agent)
 * and message counts per scope and quarter hour,
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
    const sessionOf = SESSION_OF.get(envelope.type)
    if (!sessionOf && envelope.type !== C.messageCreated.type) return // the queue's events
    const scope = scopeOfEvent(envelope)
    if (!scope) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
    const now = new Date().toISOString()
    if (!sessionOf) {
      const m = payload(C.messageCreated, envelope.data)
      // an internal note is staff talking among themselves, not conversation traffic: not counted
      if (m.visibility === 'internal') return
      await countMessage(tx.db, scope, m.created_at, quarterHourOf(m.created_at))
      await bumpDaily(tx.db, dayOf(m.created_at), 'total_messages', now)
      return
    }
    const s = sessionOf(envelope.data)
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
