import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME_SUPPORT, as, defineFields, principal, ticketsApp } from '../helpers/app.ts'
import { parseCsv } from '../helpers/csv.ts'
import { makeKnown } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })

inEachStorageMode(t, 'ticket export', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  const h = { agent: await as(agent), other: await as(otherTenant) }
  await makeKnown(svc, ACME_SUPPORT, { customers: ['ec-1'] })
  await makeKnown(svc, { tenant_id: 'globex', workspace_id: 'support' }, { customers: ['ec-1'] })
  await defineFields(app, h.agent, [
    { key: 'plan', type: 'select', options: ['free', 'pro'] },
    { key: 'regions', type: 'multiselect', options: ['eu', 'us'] },
    { key: 'note', type: 'string' },
    { key: 'retired', type: 'string', active: false },
  ])
  const create = async (body: Record<string, unknown>, headers = h.agent) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: { customer_id: 'ec-1', ...body },
    })
    if (res.statusCode !== 201) throw new Error(`create: ${res.body}`)
    return res.json()
  }
  const exportCsv = (qs = '', headers = h.agent) =>
    app.inject({ method: 'GET', url: `/api/tickets/export?${qs}`, headers })

  const first = await create({
    title: '=HYPERLINK("http://evil")',
    tags: ['a', 'b'],
    custom_fields: { plan: 'pro', regions: ['eu', 'us'], note: '@SUM(A1)' },
  })
  await create({ title: 'Plain, with a comma', description: 'x', custom_fields: { plan: 'free' } })
  await create({ title: '-2+3', priority: 'urgent' })
  await create({ title: 'Elsewhere' }, h.other)

  t.test('a CSV attachment: fixed columns, then cf.<key> of the active fields; formulas neutralised', async (t) => {
    const res = await exportCsv()
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /^text\/csv/)
    t.match(res.headers['content-disposition'], /^attachment; filename="tickets_\d{8}_\d{6}\.csv"$/)
    const { header, rows } = parseCsv(res.body)
    t.same(header, [
      'id',
      'title',
      'status',
      'priority',
      'category',
      'source',
      'customer_id',
      'agent_id',
      'session_id',
      'tags',
      'created_at',
      'updated_at',
      'resolved_at',
      'closed_at',
      'cf.note',
      'cf.plan',
      'cf.regions',
    ])
    t.same(
      rows.map((r) => r.title),
      ["'-2+3", 'Plain, with a comma', `'=HYPERLINK("http://evil")`],
      'newest first; the other tenant not exported',
    )
    t.match(rows[2], {
      id: first.id,
      tags: 'a,b',
      'cf.plan': 'pro',
      'cf.regions': 'eu,us',
      'cf.note': "'@SUM(A1)",
      agent_id: '',
    })
  })

  t.test('the list filters and order apply; limit is capped, never refused', async (t) => {
    t.same(
      parseCsv((await exportCsv('cf.plan=pro&cf.plan=free&sort_by=created_at&sort_order=asc')).body).rows.map(
        (r) => r['cf.plan'],
      ),
      ['pro', 'free'],
    )
    t.equal(parseCsv((await exportCsv('priority=urgent')).body).rows.length, 1)
    t.equal(parseCsv((await exportCsv('limit=2')).body).rows.length, 2)
    t.equal((await exportCsv('limit=100000')).statusCode, 200, 'capped at 5000')
    t.equal((await exportCsv('limit=0')).statusCode, 400)
    const none = await exportCsv('status=closed')
    t.equal(none.statusCode, 200)
    t.equal(parseCsv(none.body).rows.length, 0, 'no rows: the header alone')
    t.match(none.body, /^id,title,/)
    t.equal((await exportCsv('cf.retired_not=1')).statusCode, 400, 'an unknown custom field is a 400')
    const theirs = parseCsv((await exportCsv('', h.other)).body)
    t.same(
      theirs.rows.map((r) => r.title),
      ['Elsewhere'],
    )
    t.notOk(theirs.header.includes('cf.plan'), "another workspace's fields are not its columns")
  })
})
