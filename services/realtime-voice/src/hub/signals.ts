import { TypeCompiler } from '@sinclair/typebox/compiler'
import {
  RealtimeSignalEvents,
  type SignalKind,
  SignalRelayed,
  type SignalTarget,
  type SocketMode,
} from '@switchboard/contracts'
import type { Delivery } from '@switchboard/events'
import type { Scope } from '@switchboard/platform'
import { frame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, deliver, type Track } from './registry.ts'

/**
 * Typing indicators, read receipts and WebRTC signalling between the sockets of a session, on whichever replicas
 * they are: published on the hub's stream (`hub.signal.relayed`) and delivered by every replica to its own sockets.
 *
 * Published straight to the bus, not through the outbox (`svc.publish`, checked against the contract like every
 * event): they are not stored and change nothing, so there is no transaction for them to commit with, and one lost
 * while NATS is down is worth no more than a late one (a client re-sends typing, ICE gathers again). A replica
 * delivers its own signals the same way, so order holds for all. The contract is checked again on delivery: another
 * replica (or another service) may run other code.
 */

const check = TypeCompiler.Compile(SignalRelayed)

/** The party a socket speaks as in a session: its mode and user id (a visitor: its visitor id). */
export function partyOf(c: Client, track: Track): { kind: SocketMode; id: string } {
  if (c.mode === 'visitor') return { kind: 'visitor', id: track.session.visitor_id ?? '' }
  return { kind: c.mode, id: c.principal?.user_id ?? '' }
}

export async function publishSignal(
  h: HubContext,
  c: Client,
  track: Track,
  kind: SignalKind,
  to: SignalTarget,
  data: Record<string, unknown>,
): Promise<void> {
  const session = track.session
  const from = partyOf(c, track)
  const signal = { session_id: session.id, kind, from, to, agent_id: session.agent_id, data }
  const scope = { tenant_id: session.tenant_id, workspace_id: session.workspace_id }
  const sender = { actor: { user_id: from.id, kind: c.principal?.kind ?? 'visitor' }, scope }
  await h.publish(sender, RealtimeSignalEvents.relayed, signal)
}

const isCustomerSide = (c: Client, track: Track | undefined) =>
  (c.mode === 'visitor' || c.mode === 'customer') && (track?.role === 'customer' || track?.role === 'visitor')

/** The sockets of this replica a signal is for (README: WebRTC reaches the two participants and nobody else). */
function recipients(h: HubContext, s: SignalRelayed, scope: Scope): Client[] {
  const members = [...h.registry.members(s.session_id)].filter((c) => c.tracks.get(s.session_id)?.role !== 'pending')
  const agentConsoles = () => {
    const out = new Set(h.registry.consolesOf(s.agent_id, scope))
    for (const c of members) if (c.mode === 'console' && c.principal?.user_id === s.agent_id) out.add(c)
    return [...out]
  }
  switch (s.to) {
    case 'agent':
      return agentConsoles()
    case 'customer':
      return members.filter((c) => isCustomerSide(c, c.tracks.get(s.session_id)))
    case 'session': {
      const all = new Set([...members, ...agentConsoles()])
      return [...all].filter((c) => {
        const t = c.tracks.get(s.session_id)
        const p = t ? partyOf(c, t) : { kind: c.mode, id: c.principal?.user_id ?? '' }
        return !(p.kind === s.from.kind && p.id === s.from.id)
      })
    }
  }
}

export function createSignalDelivery(h: HubContext) {
  return async function onSignal({ envelope }: Delivery): Promise<void> {
    if (envelope.type !== RealtimeSignalEvents.relayed.type) return
    const s = envelope.data
    if (!check.Check(s)) {
      h.log.warn({ type: envelope.type }, 'hub: a signal off its contract was not delivered')
      return
    }
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const f = frame(s.kind, { ...s.data, from: s.from }, s.session_id)
    for (const c of recipients(h, s, scope)) deliver(c, c.tracks.get(s.session_id), f)
  }
}
