import { createMemoryBus } from '@switchboard/events'
import { silentLogger, testPrincipal, waitFor } from '@switchboard/testing'
import { build as buildTickets, loadConfig as ticketsConfig, tickets as ticketsService } from '@switchboard/tickets'
import t from 'tap'
import { makeKnown } from '../../tickets/test/helpers/directory.ts'
import { as, auditApp, INTERNAL_SECRET } from './helpers/app.ts'

// The embedded mode in miniature: tickets and audit on one in-process bus, each with its own SQLite store.
t.test('ticket writes show up in the audit log, failed ones with success=false', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() })
  t.teardown(() => bus.close())
  const { app: audit } = await auditApp(t, 'sqlite', { bus })
  const tickets = await buildTickets(
    {
      ...ticketsConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent' }),
      port: 0,
      database: { driver: 'sqlite', file: ':memory:' },
      cache: { driver: 'memory', prefix: 'tk:' },
      bus: { driver: 'memory' },
    },
    { logger: silentLogger(), bus },
  )
  t.teardown(() => tickets.close())
  await tickets.ready()
  // tickets takes only customers identity has told it of
  await makeKnown(
    ticketsService.contextOf(tickets),
    { tenant_id: 'acme', workspace_id: 'support' },
    { customers: ['cust-1'] },
    bus,
  )

  const agent = await as(
    testPrincipal({ user_id: 'agent-1', kind: 'agent', roles: ['agent'], permissions: ['tickets.*'] }),
  )
  const auditor = await as(testPrincipal({ user_id: 'admin-1' }))
  const outsider = await as(testPrincipal({ user_id: 'admin-9', tenant_id: 'globex' }))

  const created = await tickets.inject({
    method: 'POST',
    url: '/api/tickets',
    headers: agent,
    payload: { title: 'Audited end to end', customer_id: 'cust-1' },
  })
  t.equal(created.statusCode, 201)
  const ticket = created.json()
  const closed = await tickets.inject({
    method: 'POST',
    url: `/api/tickets/${ticket.id}/close`,
    headers: { ...agent, 'user-agent': 'console/1.0' },
    payload: { reason: 'solved on the phone' },
  })
  t.equal(closed.statusCode, 200)
  const again = await tickets.inject({
    method: 'POST',
    url: `/api/tickets/${ticket.id}/close`,
    headers: agent,
    payload: {},
  })
  t.equal(again.statusCode, 409)

  const logs = await waitFor(async () => {
    const res = await audit.inject({ method: 'GET', url: '/api/audit/logs?resource=tickets', headers: auditor })
    const body = res.json()
    return body.total >= 3 ? body : undefined
  })
  t.equal(logs.total, 3)
  type Log = { id: string; action: string; success: boolean; status_code: number; [k: string]: unknown }
  const byAction = (action: string, success: boolean) =>
    (logs.data as Log[]).find((l) => l.action === action && l.success === success)

  t.match(byAction('tickets.create', true), {
    resource_type: 'tickets',
    resource_id: ticket.id,
    actor_user_id: 'agent-1',
    principal_kind: 'agent',
    method: 'POST',
    route: '/api/tickets',
    status_code: 201,
    tenant_id: 'acme',
    workspace_id: 'support',
    request_id: created.headers['x-request-id'],
    request_json: { title: 'Audited end to end', customer_id: 'cust-1' },
    before_json: null,
    after_json: { id: ticket.id, status: 'open' },
  })
  const close = byAction('tickets.close', true)!
  t.match(close, {
    route: '/api/tickets/:id/close',
    status_code: 200,
    user_agent: 'console/1.0',
    before_json: { status: 'open', closed_at: null },
    after_json: { status: 'closed', closed_at: closed.json().closed_at },
  })
  t.match(byAction('tickets.close', false), { status_code: 409, resource_id: ticket.id })

  const diff = (await audit.inject({ method: 'GET', url: `/api/audit/logs/${close.id}/diff`, headers: auditor })).json()
  t.match(diff.diff, { has_before: true, has_after: true, changed: true })
  t.ok(diff.diff.changed_paths.includes('status'))
  t.match(
    diff.diff.changes.find((c: { path: string }) => c.path === 'status'),
    { type: 'updated', before: 'open', after: 'closed' },
  )

  const failed = (
    await audit.inject({ method: 'GET', url: '/api/audit/logs?success=false&action=tickets.close', headers: auditor })
  ).json()
  t.equal(failed.total, 1)
  const hidden = (await audit.inject({ method: 'GET', url: '/api/audit/logs', headers: outsider })).json()
  t.equal(hidden.total, 0, 'another tenant sees none of it')
})
