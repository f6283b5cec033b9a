import t from 'tap'
import { DEFAULT_CALENDAR } from '../../src/domain/business-hours.ts'
import { dateRange, lastDays } from '../../src/domain/sla-date-range.ts'
import { matchTable } from '../../src/domain/sla-match.ts'
import { evaluate, normalizeTier, pickConfig, timesProblem } from '../../src/domain/sla-rules.ts'

const config = (over: Record<string, unknown> = {}) => ({
  id: 'c1',
  priority: 'high',
  customer_tier: '',
  active: true,
  first_response_time: 10,
  resolution_time: 60,
  business_hours_only: false,
  tenant_id: 'acme',
  workspace_id: 'support',
  ...over,
})

t.test('tiers and times', async (t) => {
  t.equal(normalizeTier('URGENT'), 'urgent')
  t.equal(normalizeTier(undefined), 'normal')
  t.equal(normalizeTier('gold'), 'normal', 'an unknown tier counts as normal')
  t.equal(timesProblem({ first_response_time: 10, resolution_time: 60, escalation_time: 30 }), undefined)
  t.match(timesProblem({ first_response_time: 60, resolution_time: 60, escalation_time: 30 }), /first_response_time/)
  t.match(timesProblem({ first_response_time: 10, resolution_time: 60, escalation_time: 60 }), /escalation_time/)
})

t.test("a tier's own config wins over the catch-all; inactive configs apply to nothing", async (t) => {
  const configs = [
    config(),
    config({ id: 'c2', customer_tier: 'urgent' }),
    config({ id: 'c3', priority: 'low', active: false }),
  ]
  t.equal(pickConfig(configs, 'high', 'urgent')?.id, 'c2')
  t.equal(pickConfig(configs, 'high', 'normal')?.id, 'c1')
  t.equal(pickConfig(configs, 'low', 'normal'), undefined)
  t.equal(pickConfig(configs, 'urgent', 'normal'), undefined)
})

t.test('the match table: one row per scope, priority and tier, with cutoffs at now', async (t) => {
  const now = new Date('2026-11-24T12:00:00.000Z')
  const rows = matchTable(
    [
      config(),
      config({ id: 'c2', customer_tier: 'urgent', first_response_time: 5 }),
      config({ id: 'g1', tenant_id: 'globex' }),
    ],
    () => DEFAULT_CALENDAR,
    now,
  )
  t.equal(rows.length, 8, '4 tiers × 2 scopes')
  const urgent = rows.find((r) => r.tenant_id === 'acme' && r.tier === 'urgent')
  t.match(urgent, { config_id: 'c2', fr_cutoff: '2026-11-24T11:55:00.000Z', res_cutoff: '2026-11-24T11:00:00.000Z' })
  t.match(
    rows.find((r) => r.tenant_id === 'acme' && r.tier === 'low'),
    { config_id: 'c1', fr_cutoff: '2026-11-24T11:50:00.000Z' },
  )
  // business hours: Tuesday 12:00 UTC, default calendar 09–17 → 10 business minutes back is 11:50; 60 → 11:00;
  // and on a Monday 09:05, 10 minutes back reaches Friday 16:55
  const monday = new Date('2026-11-23T09:05:00.000Z')
  const [row] = matchTable([config({ business_hours_only: true })], () => DEFAULT_CALENDAR, monday)
  t.equal(row!.fr_cutoff, '2026-11-20T16:55:00.000Z')
})

t.test('evaluate: where a ticket stands, open or finished', async (t) => {
  const c = config()
  const created = '2026-11-24T10:00:00.000Z'
  const open = { status: 'open', created_at: created, resolved_at: null, first_response_at: null }
  const at = (iso: string) => new Date(iso)
  t.same(
    evaluate(open, c, DEFAULT_CALENDAR, at('2026-11-24T10:05:00.000Z')).map((f) => f.violated),
    [false, false],
  )
  const late = evaluate(open, c, DEFAULT_CALENDAR, at('2026-11-24T10:30:00.000Z'))
  t.match(late[0], { type: 'first_response', deadline: '2026-11-24T10:10:00.000Z', met_at: null, violated: true })
  t.match(late[1], { type: 'resolution', deadline: '2026-11-24T11:00:00.000Z', violated: false })
  const answered = { ...open, first_response_at: '2026-11-24T10:09:00.000Z' }
  t.equal(evaluate(answered, c, DEFAULT_CALENDAR, at('2026-11-24T12:00:00.000Z'))[0]!.violated, false, 'in time')
  const resolvedUnanswered = { ...open, status: 'resolved', resolved_at: '2026-11-24T10:20:00.000Z' }
  const done = evaluate(resolvedUnanswered, c, DEFAULT_CALENDAR, at('2026-11-25T00:00:00.000Z'))
  t.match(done[0], { met_at: '2026-11-24T10:20:00.000Z', violated: true }, 'resolved without an answer, late')
  t.match(done[1], { met_at: '2026-11-24T10:20:00.000Z', violated: false }, 'resolution in time')
})

t.test('date ranges', async (t) => {
  t.same(dateRange({}), { ok: true })
  t.same(dateRange({ date_from: '2026-11-01', date_to: '2026-11-02' }), {
    ok: true,
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-11-03T00:00:00.000Z',
  })
  t.match(dateRange({ date_from: '2026-02-30' }), { ok: false, field: 'date_from', reason: 'date' })
  t.match(dateRange({ date_from: '2026-11-02', date_to: '2026-11-01' }), { ok: false, reason: 'order' })
  t.same(lastDays(new Date('2026-03-01T05:00:00Z'), 3), ['2026-02-27', '2026-02-28', '2026-03-01'])
})
