import t from 'tap'
import { isMediaReplay } from '../../src/commands/media-replay.ts'
import { callPatch, eventIdOf, isReplay, MAX_CALL_DTMF, statusAfter } from '../../src/domain/call-state.ts'
import {
  isCallEventKind,
  isMediaEventKind,
  isMediaProtocol,
  isSignalingProtocol,
  PROTOCOLS,
} from '../../src/domain/protocols.ts'

t.test('the registry: three signalling and three media protocols; the events of each side', async (t) => {
  t.same(
    PROTOCOLS.map((p) => [p.id, p.type, p.status]),
    [
      ['sip', 'signaling', 'configured'],
      ['sip-ws', 'signaling', 'configured'],
      ['pstn-provider', 'signaling', 'configured'],
      ['webrtc', 'media', 'configured'],
      ['rtp', 'media', 'configured'],
      ['srtp', 'media', 'configured'],
    ],
  )
  t.ok(isSignalingProtocol('sip-ws'))
  t.notOk(isSignalingProtocol('webrtc'), 'a media protocol carries no call events')
  t.ok(isMediaProtocol('srtp'))
  t.notOk(isMediaProtocol('sip'))
  for (const kind of ['invite', 'answer', 'hold', 'resume', 'hangup', 'transfer', 'dtmf'])
    t.ok(isCallEventKind(kind), kind)
  t.notOk(isCallEventKind('ring'))
  t.notOk(isCallEventKind('session_started'))
  t.ok(isMediaEventKind('recording_stopped'))
  t.notOk(isMediaEventKind('hangup'))
})

t.test('transitions: the table', async (t) => {
  const table = {
    ringing: { answer: 'active', hold: null, resume: null, dtmf: null, transfer: 'ringing', hangup: 'ended' },
    active: { answer: null, hold: 'held', resume: null, dtmf: 'active', transfer: 'active', hangup: 'ended' },
    held: { answer: null, hold: null, resume: 'active', dtmf: null, transfer: 'held', hangup: 'ended' },
    ended: { answer: null, hold: null, resume: null, dtmf: null, transfer: null, hangup: null },
  } as const
  for (const [from, row] of Object.entries(table)) {
    for (const [kind, to] of Object.entries(row)) {
      t.equal(statusAfter(from as keyof typeof table, kind as keyof typeof row), to, `${from} + ${kind}`)
    }
  }
})

t.test('what an event changes on the call', async (t) => {
  const at = '2026-11-24T10:00:00.000Z'
  const ringing = { status: 'ringing' as const, dtmf_digits: '' }
  t.same(callPatch(ringing, 'answer', { to: 'b', dtmf: null, occurred_at: at }), { status: 'active', answered_at: at })
  t.same(callPatch(ringing, 'hangup', { to: 'b', dtmf: null, occurred_at: at }), { status: 'ended', ended_at: at })
  t.same(callPatch(ringing, 'transfer', { to: 'desk-2', dtmf: null, occurred_at: at }), {
    status: 'ringing',
    transferred_to: 'desk-2',
  })
  const active = { status: 'active' as const, dtmf_digits: '12' }
  t.same(callPatch(active, 'dtmf', { to: 'b', dtmf: '3#', occurred_at: at }), { status: 'active', dtmf_digits: '123#' })
  t.same(callPatch(active, 'hold', { to: 'b', dtmf: null, occurred_at: at }), { status: 'held' })
  const long = callPatch({ status: 'active', dtmf_digits: '1'.repeat(MAX_CALL_DTMF) }, 'dtmf', {
    to: 'b',
    dtmf: '9',
    occurred_at: at,
  })
  t.equal(long.dtmf_digits?.length, MAX_CALL_DTMF, 'the digits kept are bounded')
  t.ok(long.dtmf_digits?.endsWith('9'), 'the newest are kept')
  t.throws(() => callPatch({ status: 'ended', dtmf_digits: '' }, 'answer', { to: 'b', dtmf: null, occurred_at: at }))
})

t.test('replays', async (t) => {
  const stored = (kind: 'invite' | 'answer' | 'hold' | 'resume' | 'hangup' | 'transfer' | 'dtmf', over = {}) => ({
    kind,
    to: 'b',
    dtmf: null,
    occurred_at: '2026-11-24T10:00:00.000Z',
    occurred_at_given: false,
    ...over,
  })
  const call = (status: 'ringing' | 'active' | 'held' | 'ended', transferred_to: string | null = null) => ({
    status,
    transferred_to,
  })
  const incoming = { to: 'b', dtmf: null, occurred_at: undefined }
  for (const kind of ['invite', 'answer', 'hangup'] as const) {
    t.ok(isReplay(kind, call('ended'), incoming, stored(kind), undefined), `${kind} happens once: any stored one is it`)
    t.notOk(isReplay(kind, call('active'), incoming, undefined, undefined), `the first ${kind} is new`)
  }
  t.ok(isReplay('hold', call('held'), incoming, stored('hold'), 'hold'), 'hold while held repeats the last hold')
  t.notOk(isReplay('hold', call('active'), incoming, stored('hold'), 'resume'), 'hold after a resume is a new one')
  t.notOk(isReplay('hold', call('ended'), incoming, stored('hold'), 'hold'), 'after hangup it is no replay (409)')
  t.ok(isReplay('resume', call('active'), incoming, stored('resume'), 'resume'), 'resume after a resume repeats it')
  t.notOk(isReplay('resume', call('held'), incoming, stored('resume'), 'hold'), 'resume of a new hold is new')
  t.ok(isReplay('transfer', call('active', 'b'), incoming, stored('transfer'), undefined), 'same target: a retry')
  t.notOk(
    isReplay('transfer', call('active', 'b'), { ...incoming, to: 'c' }, stored('transfer'), undefined),
    'another target: a new transfer',
  )
  const at = '2026-11-24T10:00:01.000Z'
  const dtmf = stored('dtmf', { dtmf: '5', occurred_at: at, occurred_at_given: true })
  t.ok(
    isReplay('dtmf', call('active'), { to: 'b', dtmf: '5', occurred_at: at }, dtmf, undefined),
    'same digits, same instant',
  )
  t.notOk(
    isReplay('dtmf', call('active'), { to: 'b', dtmf: '5', occurred_at: undefined }, dtmf, undefined),
    'no instant given: someone pressed again',
  )
  t.notOk(
    isReplay('dtmf', call('active'), { to: 'b', dtmf: '6', occurred_at: at }, dtmf, undefined),
    'other digits: a new event',
  )
})

t.test('event ids: the reference form, then a sequence', async (t) => {
  t.equal(eventIdOf('sip', 'invite', 'abc@host', 1), 'sip-invite-abc@host')
  t.equal(eventIdOf('sip-ws', 'hold', 'c1', 2), 'sip-ws-hold-c1-2')
})

t.test('media replays need the same instant, track and recording', async (t) => {
  const at = '2026-11-24T10:00:00.000Z'
  const last = { track_id: 't1', recording_id: null, occurred_at: at, occurred_at_given: true }
  t.ok(isMediaReplay({ track_id: 't1', recording_id: null, occurred_at: at }, last))
  t.notOk(isMediaReplay({ track_id: 't2', recording_id: null, occurred_at: at }, last))
  t.notOk(isMediaReplay({ track_id: 't1', recording_id: null, occurred_at: undefined }, last))
  t.notOk(isMediaReplay({ track_id: 't1', recording_id: null, occurred_at: at }, undefined))
})
