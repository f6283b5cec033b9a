import { type Static, Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ConversationEvents, MessageFacts, SessionFacts } from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import type { Scope } from '@switchboard/platform'
import { frame, messageFrame, type OutFrame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, deliver, type SessionView, type Track } from './registry.ts'

/**
 * conversations' events → frames on this replica's sockets (the fan-out subscription: every replica sees every
 * event and delivers it to its own sockets of that session, and to the consoles of the session's agent).
 */

// Checked before use. `seq` may be missing from an event of a conversations replica older than the field (a
// rolling update): such a message is delivered without de-duplication rather than lost.
const LiveMessage = Type.Composite([
  Type.Omit(MessageFacts, ['seq']),
  Type.Object({ seq: Type.Optional(Type.Integer({ minimum: 1 })) }),
])
const checks = {
  message: TypeCompiler.Compile(LiveMessage),
  session: TypeCompiler.Compile(SessionFacts),
  assigned: TypeCompiler.Compile(ConversationEvents.sessionAssigned.data),
  transferred: TypeCompiler.Compile(ConversationEvents.sessionTransferred.data),
  released: TypeCompiler.Compile(ConversationEvents.sessionReleased.data),
  waiting: TypeCompiler.Compile(ConversationEvents.queueWaiting.data),
  queueAssigned: TypeCompiler.Compile(ConversationEvents.queueAssigned.data),
  cancelled: TypeCompiler.Compile(ConversationEvents.queueCancelled.data),
}

type Facts = Static<typeof SessionFacts>

/** Delivers a frame of a session: to its joined sockets and to the consoles of `agents` (in the event's scope). */
function toSession(
  h: HubContext,
  sessionId: string,
  agents: ReadonlyArray<string | null>,
  scope: Scope,
  f: OutFrame,
  patch: Partial<SessionView> = {},
) {
  const targets = new Set<Client>(h.registry.members(sessionId))
  for (const agent of agents) for (const c of h.registry.consolesOf(agent, scope)) targets.add(c)
  for (const c of targets) {
    let track: Track | undefined = c.tracks.get(sessionId)
    if (!track && c.mode === 'console') track = h.registry.follow(c, { ...viewOf(sessionId, scope), ...patch })
    if (track) Object.assign(track.session, patch)
    deliver(c, track, f)
  }
}

const viewOf = (id: string, scope: Scope): SessionView => ({
  id,
  ...scope,
  status: '',
  agent_id: null,
  customer_id: null,
  visitor_id: null,
})

const sessionPatch = (s: Facts): Partial<SessionView> => ({
  status: s.status,
  agent_id: s.agent_id,
  customer_id: s.customer_id,
  visitor_id: s.visitor_id,
})

/** Consoles of an agent a session left stop following it (unless they joined it). */
function unfollow(h: HubContext, agentId: string | null, scope: Scope, sessionId: string) {
  for (const c of h.registry.consolesOf(agentId, scope))
    if (c.tracks.get(sessionId)?.joined === false) c.tracks.delete(sessionId)
}

function waitingText(position: number, seconds: number | null): string {
  const wait = seconds === null ? '' : ` Estimated wait: about ${Math.max(1, Math.round(seconds / 60))} min.`
  return `You are number ${position} in the queue for a human agent.${wait}`
}

export function createFanout(h: HubContext) {
  return async function onEvent({ envelope }: Delivery): Promise<void> {
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const data = envelope.data
    switch (envelope.type) {
      case ConversationEvents.messageCreated.type: {
        if (!checks.message.Check(data)) return skip(h, envelope.type)
        const patch = { status: data.session_status, agent_id: data.agent_id }
        return toSession(h, data.session_id, [data.agent_id], scope, messageFrame(data, data.seq), patch)
      }
      case ConversationEvents.sessionAssigned.type: {
        if (!checks.assigned.Check(data)) return skip(h, envelope.type)
        const { session, previous_agent_id } = data
        const f = frame(
          'transfer_notification',
          {
            event: 'assigned',
            agent_id: session.agent_id,
            previous_agent_id,
            status: session.status,
            message: 'An agent joined the conversation.',
          },
          session.session_id,
        )
        toSession(h, session.session_id, [session.agent_id, previous_agent_id], scope, f, sessionPatch(session))
        if (previous_agent_id !== session.agent_id) unfollow(h, previous_agent_id, scope, session.session_id)
        return
      }
      case ConversationEvents.sessionTransferred.type: {
        if (!checks.transferred.Check(data)) return skip(h, envelope.type)
        const { session, from_agent_id, to_agent_id, reason } = data
        const f = frame(
          'transfer_notification',
          {
            event: 'transferred',
            agent_id: to_agent_id,
            previous_agent_id: from_agent_id,
            reason,
            status: session.status,
            message: 'The conversation was handed over to an agent.',
          },
          session.session_id,
        )
        toSession(h, session.session_id, [to_agent_id, from_agent_id], scope, f, sessionPatch(session))
        if (from_agent_id !== to_agent_id) unfollow(h, from_agent_id, scope, session.session_id)
        return
      }
      case ConversationEvents.sessionReleased.type: {
        // the agent let go (POST /api/agents/:id/release-session): told like the other agent changes, to the
        // session's sockets and the released agent's consoles, which then stop following it as on a transfer
        if (!checks.released.Check(data)) return skip(h, envelope.type)
        const { session, previous_agent_id } = data
        const f = frame(
          'transfer_notification',
          {
            event: 'released',
            agent_id: session.agent_id,
            previous_agent_id,
            status: session.status,
            message: 'The agent left the conversation.',
          },
          session.session_id,
        )
        toSession(h, session.session_id, [session.agent_id, previous_agent_id], scope, f, sessionPatch(session))
        if (previous_agent_id !== session.agent_id) unfollow(h, previous_agent_id, scope, session.session_id)
        return
      }
      case ConversationEvents.sessionClosed.type:
      case ConversationEvents.sessionReopened.type: {
        if (!checks.session.Check(data)) return skip(h, envelope.type)
        const f = frame(
          'session',
          { session_id: data.session_id, status: data.status, agent_id: data.agent_id },
          data.session_id,
        )
        return toSession(h, data.session_id, [data.agent_id], scope, f, sessionPatch(data))
      }
      case ConversationEvents.queueWaiting.type: {
        if (!checks.waiting.Check(data)) return skip(h, envelope.type)
        const f = frame(
          'waiting_notification',
          {
            status: 'waiting',
            waiting_id: data.waiting_id,
            position: data.position,
            estimated_wait_seconds: data.estimated_wait_seconds,
            priority: data.priority,
            reason: data.reason,
            queued_at: data.queued_at,
            message: waitingText(data.position, data.estimated_wait_seconds),
          },
          data.session_id,
        )
        toSession(h, data.session_id, [], scope, f, { status: 'waiting_human' })
        return toConsoles(h, scope, f, data.session_id)
      }
      case ConversationEvents.queueAssigned.type: {
        if (!checks.queueAssigned.Check(data)) return skip(h, envelope.type)
        // The session's own sockets hear of it from conversations.session.transferred; this updates the queues
        // the consoles of the scope show.
        const f = frame(
          'transfer_notification',
          {
            event: 'queue_assigned',
            agent_id: data.agent_id,
            waiting_id: data.waiting_id,
            waited_seconds: data.waited_seconds,
            message: 'A waiting conversation was assigned.',
          },
          data.session_id,
        )
        return toConsoles(h, scope, f, data.session_id)
      }
      case ConversationEvents.queueCancelled.type: {
        if (!checks.cancelled.Check(data)) return skip(h, envelope.type)
        const f = frame(
          'waiting_notification',
          {
            status: 'cancelled',
            waiting_id: data.waiting_id,
            position: null,
            estimated_wait_seconds: null,
            reason: data.reason,
            message: 'The conversation left the queue.',
          },
          data.session_id,
        )
        toSession(h, data.session_id, [], scope, f)
        return toConsoles(h, scope, f, data.session_id)
      }
    }
  }
}

/** Queue notifications to every console of the scope (once per socket: those in the session already have it). */
function toConsoles(h: HubContext, scope: Scope, f: OutFrame, sessionId: string) {
  const members = h.registry.members(sessionId)
  for (const c of h.registry.consolesIn(scope)) if (!members.has(c)) deliver(c, undefined, f)
}

function skip(h: HubContext, type: string) {
  h.log.warn({ type }, 'hub: an event off its contract was not delivered')
}
