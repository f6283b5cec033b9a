import { ConversationEvents, type SessionFacts } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import { nowIso, on, type Scope, versionOf } from '@switchboard/platform'
import { countMessage, projectSession } from '../db/conversations.repository.ts'
import { bumpDaily } from '../db/daily-stats.repository.ts'
import type { StatsTx } from '../db/unit-of-work.ts'
import { dayOf, quarterHourOf } from '../domain/dates.ts'
import { projection } from './projection.ts'
import { scopeOfEvent } from './scope.ts'

export const CONVERSATIONS_PROJECTION = 'statistics-conversations'

const C = ConversationEvents

function requireScope({ envelope }: Delivery): Scope {
  const scope = scopeOfEvent(envelope)
  if (!scope) throw new Error(`${envelope.type} ${envelope.id} has no scope`)
  return scope
}

/** A session as its event describes it (every session event carries it whole, so the newest wins). */
async function session(event: Delivery, s: SessionFacts, tx: StatsTx) {
  const scope = requireScope(event)
  const createdAt = new Date(s.started_at).toISOString()
  const made = await projectSession(tx, {
    session_id: s.session_id,
    ...scope,
    status: s.status,
    created_at: createdAt,
    ...versionOf(event.envelope),
  })
  if (made) bumpDaily(tx.work, dayOf(createdAt), 'total_sessions', nowIso())
}

/**
 * conversations' events → sessions (status, created_at = started_at: a release leaves its session active with no
 * agent) and message counts per scope and quarter hour, and DailyStats' total_sessions (a session's first event) and
 * total_messages (each message, on its own day). Each session event is checked against its own contract: the whole
 * payload, or its `session` (assigned, transferred, released each have a shape of their own around it). The queue's
 * events move nothing. Each event is applied once (inbox).
 */
export const conversationsProjection = projection({
  durable: CONVERSATIONS_PROJECTION,
  stream: 'CONVERSATIONS',
  subjects: ['conversations.>'],
  handlers: [
    on(C.sessionCreated, (event, tx) => session(event, event.data, tx)),
    on(C.sessionClosed, (event, tx) => session(event, event.data, tx)),
    on(C.sessionReopened, (event, tx) => session(event, event.data, tx)),
    on(C.sessionLinked, (event, tx) => session(event, event.data, tx)),
    on(C.sessionAssigned, (event, tx) => session(event, event.data.session, tx)),
    on(C.sessionTransferred, (event, tx) => session(event, event.data.session, tx)),
    on(C.sessionReleased, (event, tx) => session(event, event.data.session, tx)),
    on(C.messageCreated, (event, tx) => {
      const scope = requireScope(event)
      const m = event.data
      // an internal note is staff talking among themselves, not conversation traffic: not counted
      if (m.visibility === 'internal') return
      countMessage(tx.work, scope, m.created_at, quarterHourOf(m.created_at))
      bumpDaily(tx.work, dayOf(m.created_at), 'total_messages', nowIso())
    }),
  ],
})
