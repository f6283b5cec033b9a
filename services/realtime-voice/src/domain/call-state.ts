import type { CallEventKind } from './protocols.ts'

/**
 * The call state machine (pure). `invite` makes a call (ringing); `answer` takes a ringing call to active; `hold`
 * and `resume` go between active and held; `dtmf` is taken while active; `transfer` while the call lives (it
 * records the target, the status stays); `hangup` ends a call from any living status. An ended call takes
 * nothing: every event on it is a 409, unless it is a replay of an event already stored.
 */
export type CallStatus = 'ringing' | 'active' | 'held' | 'ended'

export function statusAfter(status: CallStatus, kind: Exclude<CallEventKind, 'invite'>): CallStatus | null {
  switch (kind) {
    case 'answer':
      return status === 'ringing' ? 'active' : null
    case 'hold':
      return status === 'active' ? 'held' : null
    case 'resume':
      return status === 'held' ? 'active' : null
    case 'dtmf':
      return status === 'active' ? 'active' : null
    case 'transfer':
      // a ringing call may be deflected, a held one handed on: the call goes on with its new target
      return status === 'ended' ? null : status
    case 'hangup':
      return status === 'ended' ? null : 'ended'
  }
}

/** What of a call an event changes. */
export interface CallPatch {
  status: CallStatus
  answered_at?: string
  ended_at?: string
  transferred_to?: string
  dtmf_digits?: string
}

/** Digits kept on the call: the last ones, bounded, so a long IVR session cannot grow the row without end. */
export const MAX_CALL_DTMF = 256

/** The call after `kind` (already allowed by statusAfter) at `at`. */
export function callPatch(
  call: { status: CallStatus; dtmf_digits: string },
  kind: Exclude<CallEventKind, 'invite'>,
  event: { to: string; dtmf: string | null; occurred_at: string },
): CallPatch {
  const status = statusAfter(call.status, kind)
  if (!status) throw new Error(`${kind} is not allowed from ${call.status}`)
  switch (kind) {
    case 'answer':
      return { status, answered_at: event.occurred_at }
    case 'hangup':
      return { status, ended_at: event.occurred_at }
    case 'transfer':
      return { status, transferred_to: event.to }
    case 'dtmf':
      return { status, dtmf_digits: (call.dtmf_digits + (event.dtmf ?? '')).slice(-MAX_CALL_DTMF) }
    default:
      return { status }
  }
}

/** A stored event, as far as replays are concerned. */
export interface StoredEventFacts {
  kind: CallEventKind
  to: string
  dtmf: string | null
  occurred_at: string
  occurred_at_given: boolean
}

export interface IncomingEvent {
  to: string
  dtmf: string | null
  /** only when the client gave it */
  occurred_at: string | undefined
}

/**
 * Whether an incoming event is a replay of one already stored (then the stored one is the answer, whatever the
 * call's status now). `last` is the latest stored event of the same kind; `lastToggle` the latest hold or resume.
 *
 * - invite, answer, hangup happen once per call: any stored one is the replay.
 * - hold while held, resume while active after a resume: a retry of the latest.
 * - transfer to the target the call was last transferred to: a retry.
 * - dtmf with the digits and the `occurred_at` of the latest: a retry (only a client that sends `occurred_at` can be
 *   told apart from someone pressing the same key again).
 */
export function isReplay(
  kind: CallEventKind,
  call: { status: CallStatus; transferred_to: string | null },
  incoming: IncomingEvent,
  last: StoredEventFacts | undefined,
  lastToggle: 'hold' | 'resume' | undefined,
): boolean {
  if (!last) return false
  switch (kind) {
    case 'invite':
    case 'answer':
    case 'hangup':
      return true
    case 'hold':
      return call.status === 'held'
    case 'resume':
      return call.status === 'active' && lastToggle === 'resume'
    case 'transfer':
      return call.status !== 'ended' && last.to === incoming.to && call.transferred_to === incoming.to
    case 'dtmf':
      return (
        incoming.occurred_at !== undefined &&
        last.occurred_at_given &&
        last.occurred_at === incoming.occurred_at &&
        last.dtmf === incoming.dtmf
      )
  }
}

/** `<protocol>-<kind>-<call_id>` (the reference's), then `-2`, `-3`, … for the next events of a repeatable kind. */
export function eventIdOf(protocol: string, kind: string, callId: string, seq: number): string {
  const base = `${protocol}-${kind}-${callId}`
  return seq <= 1 ? base : `${base}-${seq}`
}
