import t from 'tap'
import { closeComment, normalizeTags } from '../../src/domain/ticket.ts'
import {
  canClose,
  checkTransition,
  stampsFor,
  statusAfterAssign,
  TICKET_STATUSES,
  TRANSITIONS,
} from '../../src/domain/ticket-status.ts'

t.test('the happy path and reopen are allowed', async (t) => {
  t.same(checkTransition('open', 'assigned', true), { ok: true, changed: true })
  t.same(checkTransition('assigned', 'in_progress', true), { ok: true, changed: true })
  t.same(checkTransition('in_progress', 'resolved', true), { ok: true, changed: true })
  t.same(checkTransition('resolved', 'closed', true), { ok: true, changed: true })
  t.same(checkTransition('assigned', 'open', true), { ok: true, changed: true })
  t.same(checkTransition('in_progress', 'open', true), { ok: true, changed: true })
  t.same(checkTransition('assigned', 'resolved', true), { ok: true, changed: true }, 'skipping in_progress')
})

t.test('the documented refusals', async (t) => {
  for (const [from, to] of [
    ['open', 'in_progress'],
    ['open', 'resolved'],
    ['open', 'closed'],
    ['resolved', 'open'],
    ['resolved', 'in_progress'],
    ['in_progress', 'assigned'],
    ['closed', 'open'],
    ['closed', 'resolved'],
  ] as const) {
    t.same(checkTransition(from, to, true), { ok: false, reason: 'invalid' }, `${from} → ${to}`)
  }
  t.same(checkTransition('open', 'assigned', false), { ok: false, reason: 'agent_required' })
})

t.test('the same status is a no-op, closed is terminal, every state is in the table', async (t) => {
  for (const s of TICKET_STATUSES) t.same(checkTransition(s, s, false), { ok: true, changed: false })
  t.same(TRANSITIONS.closed, [])
  t.same(Object.keys(TRANSITIONS).sort(), [...TICKET_STATUSES].sort())
})

t.test('close from any state but closed; assign from open, assigned, in_progress', async (t) => {
  t.same(
    TICKET_STATUSES.filter((s) => canClose(s)),
    ['open', 'assigned', 'in_progress', 'resolved'],
  )
  t.equal(statusAfterAssign('open'), 'assigned')
  t.equal(statusAfterAssign('assigned'), 'assigned')
  t.equal(statusAfterAssign('in_progress'), 'in_progress')
  t.equal(statusAfterAssign('resolved'), null)
  t.equal(statusAfterAssign('closed'), null)
})

t.test('stamps: resolved_at on resolution, kept or set on close', async (t) => {
  const now = '2026-01-02T03:04:05.000Z'
  t.same(stampsFor('resolved', { resolved_at: null }, now), { resolved_at: now })
  t.same(stampsFor('closed', { resolved_at: null }, now), { closed_at: now, resolved_at: now })
  t.same(stampsFor('closed', { resolved_at: '2026-01-01T00:00:00.000Z' }, now), {
    closed_at: now,
    resolved_at: '2026-01-01T00:00:00.000Z',
  })
  t.same(stampsFor('assigned', { resolved_at: null }, now), {})
})

t.test('tags and the close comment', async (t) => {
  t.same(normalizeTags([' vip ', 'billing', 'vip', '  ']), ['vip', 'billing'])
  t.equal(closeComment(undefined), 'Ticket closed')
  t.equal(closeComment('  duplicate '), 'Ticket closed: duplicate')
})
