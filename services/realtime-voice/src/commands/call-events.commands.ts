import { VoiceEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso, type Scope, type Tx } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { countCallEvents, insertCallEvent, lastCallEvent } from '../db/call-events.repository.ts'
import { findCall, findCallForUpdate, insertCall, updateCall } from '../db/calls.repository.ts'
import type { RealtimeDatabase } from '../db/database.ts'
import type { RecordingRow } from '../db/recordings.repository.ts'
import { isUniqueViolation } from '../db/unique-violation.ts'
import { type Call, callFacts, type StoredCallEvent, scopeOfCall } from '../domain/call-record.ts'
import { callPatch, eventIdOf, isReplay, statusAfter } from '../domain/call-state.ts'
import { type CallEventKind, isCallEventKind, isSignalingProtocol } from '../domain/protocols.ts'
import { RealtimeErrors, VoiceErrors } from '../errors.ts'
import type { CallEventPayload } from '../schemas/voice.schemas.ts'
import { linkConversation, openConversation } from './conversation-link.ts'
import { settleConversation } from './hangup.ts'
import { stopActiveRecording, tellProviderStopped } from './recordings.commands.ts'

export interface CallEventInput {
  protocol: string
  kind: string
  payload: CallEventPayload
}

/** The stored event (the new one, or the one a replay repeats) and the call before and after it, for the audit. */
export interface CallEventResult {
  event: StoredCallEvent
  before: Call | null
  after: Call
  replayed: boolean
  /** a hangup stopped the call's recording */
  stopped?: RecordingRow | undefined
}

/**
 * A signalling event of a call (`POST /api/voice/protocols/:protocol/call-events/:event`): an unknown protocol is
 * 404, an unknown event 400; `invite` makes the call and links it to a conversation, the others move it along the
 * state machine (call-state.ts: 404 for an unknown call, 409 for a transition its status does not take). An event
 * already stored (by its id, or the replay rules of isReplay) is answered from storage and changes nothing.
 */
export async function recordCallEvent(
  svc: RealtimeService,
  caller: Caller,
  input: CallEventInput,
): Promise<CallEventResult> {
  if (!isSignalingProtocol(input.protocol)) throw new RealtimeErrors.UnknownProtocol(input.protocol)
  if (!isCallEventKind(input.kind)) throw new RealtimeErrors.UnknownEvent(input.kind)
  const scope = concreteScope(caller)
  const payload = input.payload
  if (input.kind === 'dtmf' && !payload.dtmf) throw new VoiceErrors.BodyField('payload.dtmf', 'is required for dtmf')
  if (input.kind === 'invite') return invite(svc, caller, scope, input.protocol, payload)
  const result = await advance(svc, caller, scope, input.protocol, input.kind, payload)
  if (input.kind !== 'hangup') return result
  if (result.stopped) await tellProviderStopped(svc, caller, result.stopped)
  // after the commit: the call has ended whatever conversations says; a failure here is answered (502) so the
  // client retries, and the retry (a replay) settles what is still unsettled
  result.after = await settleConversation(svc, caller, result.after)
  return result
}

// Normalised so that a replay compares equal whatever form the client wrote the instant in.
const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString())
const digits = (value: string | undefined) => (value ? value.toUpperCase() : null)

async function invite(
  svc: RealtimeService,
  caller: Caller,
  scope: Scope,
  protocol: string,
  p: CallEventPayload,
): Promise<CallEventResult> {
  const existing = await findCall(svc.db, p.call_id, scope)
  if (existing) return replayed(svc, existing, 'invite')
  // The conversation first, outside the transaction (another service): its id is derived from the call, so a
  // retry after a failure below reaches the same session rather than opening a second one.
  const ctx = { scope, request_id: caller.request_id }
  const parties = { call_id: p.call_id, protocol, from: p.from, to: p.to }
  const link = p.conversation_id
    ? await linkConversation(svc, ctx, p.conversation_id, parties)
    : await openConversation(svc, ctx, parties)
  const given = instant(p.occurred_at)
  const at = given ?? nowIso()
  const now = nowIso()
  const call: Call = {
    id: newId(),
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    call_id: p.call_id,
    protocol,
    status: 'ringing',
    from: p.from,
    to: p.to,
    conversation_id: link.conversation_id,
    conversation_opened: !p.conversation_id,
    conversation_settled_at: null,
    customer_id: link.customer_id,
    transferred_to: null,
    dtmf_digits: '',
    metadata: p.metadata ?? {},
    started_at: at,
    answered_at: null,
    ended_at: null,
    created_at: now,
    updated_at: now,
  }
  try {
    return await svc.transaction(caller, async (tx) => {
      await insertCall(tx.db, call)
      const event = eventOf(call, protocol, 'invite', 1, p, given, at)
      await insertCallEvent(tx.db, event)
      await tx.emit(VoiceEvents.callStarted, callFacts(call), scopeOfCall(call))
      return { event, before: null, after: call, replayed: false }
    })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    // a concurrent invite of the same call won: its event is the answer
    const won = await findCall(svc.db, p.call_id, scope)
    if (!won) throw err
    return replayed(svc, won, 'invite')
  }
}

async function replayed(svc: RealtimeService, call: Call, kind: CallEventKind): Promise<CallEventResult> {
  const event = await lastCallEvent(svc.db, call.id, kind)
  if (!event) throw new Error(`call ${call.id} has no ${kind} event`)
  return { event, before: call, after: call, replayed: true }
}

async function advance(
  svc: RealtimeService,
  caller: Caller,
  scope: Scope,
  protocol: string,
  kind: Exclude<CallEventKind, 'invite'>,
  p: CallEventPayload,
): Promise<CallEventResult> {
  return svc.transaction(caller, async (tx) => {
    const call = await findCallForUpdate(tx, p.call_id, scope)
    if (!call) throw new RealtimeErrors.CallNotFound(p.call_id)
    if (p.conversation_id !== undefined && p.conversation_id !== call.conversation_id) {
      throw new VoiceErrors.ConversationMismatch(call.call_id, call.conversation_id ?? '(none)')
    }
    const given = instant(p.occurred_at)
    const dtmf = kind === 'dtmf' ? digits(p.dtmf) : null
    const last = await lastCallEvent(tx.db, call.id, kind)
    const toggle = kind === 'resume' ? await lastToggle(tx, call.id) : undefined
    if (isReplay(kind, call, { to: p.to, dtmf, occurred_at: given }, last, toggle)) {
      return { event: last!, before: call, after: call, replayed: true }
    }
    if (!statusAfter(call.status, kind)) throw new VoiceErrors.InvalidTransition(call.call_id, call.status, kind)
    const at = given ?? nowIso()
    const patch = callPatch(call, kind, { to: p.to, dtmf, occurred_at: at })
    const now = nowIso()
    const after: Call = { ...call, ...patch, updated_at: now }
    await updateCall(tx.db, call.id, { ...patch, updated_at: now })
    const event = eventOf(after, protocol, kind, (last?.seq ?? 0) + 1, { ...p, dtmf: dtmf ?? undefined }, given, at)
    await insertCallEvent(tx.db, event)
    if (kind === 'answer') await tx.emit(VoiceEvents.callAnswered, callFacts(after), scopeOfCall(after))
    if (kind === 'hangup') {
      await tx.emit(VoiceEvents.callEnded, callFacts(after), scopeOfCall(after))
      // a recording does not outlive its call
      const stopped = await stopActiveRecording(tx, after, at)
      return { event, before: call, after, replayed: false, stopped }
    }
    return { event, before: call, after, replayed: false }
  })
}

/**
 * Hold and resume alternate strictly (hold only from active, resume only from held), so their counts say which
 * came last without trusting clocks.
 */
async function lastToggle(tx: Tx<RealtimeDatabase>, callRef: string): Promise<'hold' | 'resume' | undefined> {
  const holds = await countCallEvents(tx.db, callRef, 'hold')
  const resumes = await countCallEvents(tx.db, callRef, 'resume')
  if (resumes > 0 && resumes === holds) return 'resume'
  return holds > 0 ? 'hold' : undefined
}

function eventOf(
  call: Call,
  protocol: string,
  kind: CallEventKind,
  seq: number,
  p: CallEventPayload,
  given: string | undefined,
  at: string,
): StoredCallEvent {
  return {
    id: newId(),
    tenant_id: call.tenant_id,
    workspace_id: call.workspace_id,
    event_id: eventIdOf(protocol, kind, call.call_id, seq),
    call_ref: call.id,
    call_id: call.call_id,
    protocol,
    kind,
    seq,
    call_status: call.status,
    from: p.from,
    to: p.to,
    dtmf: kind === 'dtmf' ? (p.dtmf ?? null) : null,
    conversation_id: call.conversation_id,
    occurred_at: at,
    occurred_at_given: given !== undefined,
    metadata: p.metadata ?? {},
    created_at: nowIso(),
  }
}
