import t from 'tap'
import { assignOrder } from '../../src/domain/auto-assign.ts'
import { parseTimeRange } from '../../src/domain/date-range.ts'
import { csvHeader, csvRow, exportFileName } from '../../src/domain/ticket-csv.ts'
import { statusAfterUnassign } from '../../src/domain/ticket-status.ts'

t.test('auto-assignment: online, under capacity, lowest load, then user id', async (t) => {
  const a = (user_id: string, load: number, status = 'online', max_concurrent = 3) => ({
    agent_id: `rec-${user_id}`,
    user_id,
    status,
    max_concurrent,
    load,
  })
  const order = assignOrder([a('u3', 1), a('u1', 2), a('u2', 1), a('off', 0, 'away'), a('full', 3)])
  t.same(
    order.map((c) => c.user_id),
    ['u2', 'u3', 'u1'],
  )
  t.same(assignOrder([a('full', 3), a('busy', 0, 'busy')]), [], 'nobody free: the ticket waits')
})

t.test('unassigning sends work back to the queue; finished tickets keep their agent', async (t) => {
  t.equal(statusAfterUnassign('assigned'), 'open')
  t.equal(statusAfterUnassign('in_progress'), 'open')
  t.equal(statusAfterUnassign('open'), 'open')
  t.equal(statusAfterUnassign('resolved'), null)
  t.equal(statusAfterUnassign('closed'), null)
})

t.test('time ranges: whole days, instants, and an end before the start', async (t) => {
  t.same(parseTimeRange('created', '2026-03-01', '2026-03-01'), {
    ok: true,
    range: { from: '2026-03-01T00:00:00.000Z', to: { at: '2026-03-02T00:00:00.000Z', exclusive: true } },
  })
  t.same(parseTimeRange('created', undefined, '2026-03-01T10:00:00Z'), {
    ok: true,
    range: { to: { at: '2026-03-01T10:00:00.000Z', exclusive: false } },
  })
  t.match(parseTimeRange('updated', '2026-02-30'), { ok: false, message: /querystring.updated_from/ })
  t.match(parseTimeRange('closed', '2026-03-02', '2026-03-01'), { ok: false, message: /closed_to: before closed_from/ })
})

t.test('csv rows: fixed columns, then cf.<key>', async (t) => {
  const header = csvHeader(['plan', 'areas'])
  t.same(header.slice(-3), ['closed_at', 'cf.plan', 'cf.areas'])
  const row = csvRow(
    {
      id: 't1',
      title: '=HYPERLINK("x")',
      status: 'open',
      priority: 'high',
      category: 'general',
      source: 'web',
      customer_id: 'c1',
      agent_id: null,
      session_id: null,
      tags: ['a', 'b'],
      custom_fields: { plan: 'pro', areas: ['eu', 'us'] },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      resolved_at: null,
      closed_at: null,
    },
    ['plan', 'areas'],
  )
  t.equal(row.length, header.length)
  t.same(row.slice(-3), ['', 'pro', 'eu,us'])
  t.equal(row[1], '=HYPERLINK("x")', 'cells are as stored; the stringifier escapes formulas')
  t.equal(row[9], 'a,b')
  t.equal(exportFileName(new Date('2026-11-24T08:09:10.123Z')), 'tickets_20261124_080910.csv')
})
