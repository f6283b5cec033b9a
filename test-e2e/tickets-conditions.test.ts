// Issue 19 (§5, §7) end to end through the gateway in both run modes: custom fields shown on the earlier system's
// conditions (`{all|any: [{field, op, value}]}`), required only while shown and refused when malformed; and a
// ticket's rating at GET /api/tickets/:id/satisfaction (204 without one, another tenant's ticket like a missing one,
// guarded by the satisfaction permission as in the earlier system).
import { randomBytes, randomUUID } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import { login } from './harness/auth.ts'
import { client } from './harness/http.ts'
import { isError, likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket, realCustomer } from './harness/tickets-kit.ts'

inEachMode('tickets: custom field conditions and a ticket’s rating', {}, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const asAdmin = { token: admin.token }
  const asAgent = { token: agent.token }
  // A workspace of its own, so the fields defined here bind no other file's tickets.
  const mint = async (permissions: string[]) =>
    (await mintServiceToken({ service: `cond-${suffix}`, permissions, env: system.env })).token
  const scope = { 'x-tenant-id': `cond${suffix}`, 'x-workspace-id': 'support' }
  const service = { token: await mint(['*']), headers: scope }
  const customer = await realCustomer(api, service, `cond_cust_${suffix}`)

  t.test('show_when {all|any: [{field, op, value}]}: strict, and required only while shown', async (t) => {
    const define = async (body: Record<string, unknown>) => {
      const res = await api.post('/api/custom-fields', body, service)
      if (res.status !== 201) throw new Error(`field ${String(body.key)}: ${res.status} ${res.text}`)
      return res.body
    }
    await define({ key: 'plan', type: 'select', options: ['free', 'pro'] })
    const po = await define({
      key: 'po_number',
      type: 'string',
      required: true,
      show_when: {
        all: [
          { field: 'ticket.category', op: 'eq', value: 'billing' },
          { field: 'cf.plan', op: 'neq', value: 'free' },
        ],
      },
    })
    t.match(po.show_when, { all: [{ field: 'ticket.category' }, { field: 'cf.plan', op: 'neq' }] })
    await define({
      key: 'escalation',
      type: 'string',
      required: true,
      show_when: { any: [{ field: 'ticket.priority', op: 'in', value: ['urgent'] }] },
    })
    const unknownOp = await api.post(
      '/api/custom-fields',
      { key: 'x', type: 'string', show_when: { all: [{ field: 'cf.plan', op: 'like', value: 'p' }] } },
      service,
    )
    isError(t, unknownOp, 400, 'VALIDATION_FAILED', 'an unknown op')
    const unknownField = await api.post(
      '/api/custom-fields',
      { key: 'x', type: 'string', show_when: { any: [{ field: 'cf.nothing', op: 'exists' }] } },
      service,
    )
    isError(t, unknownField, 400, 'TICKETS_CUSTOM_FIELD_INVALID', 'a field not in the workspace')
    t.match(unknownField.body.message, /body\.show_when\.any\.0\.field: no custom field nothing/)

    const ticket = (extra: Record<string, unknown>, custom_fields: Record<string, unknown> = {}) =>
      createTicket(api, { title: `Cond ${suffix}`, customer_id: customer.user_id, ...extra, custom_fields }, service)
    const billing = await ticket({ category: 'billing' }, { plan: 'pro' })
    isError(t, billing, 400, 'TICKETS_INVALID_CUSTOM_FIELDS', 'all: both hold')
    t.equal(billing.body.message, 'body.custom_fields.po_number: required')
    t.equal((await ticket({ category: 'billing' }, { plan: 'free' })).status, 201, 'all: one does not hold')
    const urgent = await ticket({ priority: 'urgent' })
    t.equal(urgent.body.message, 'body.custom_fields.escalation: required', 'any: one holds')
    const full = await ticket(
      { category: 'billing', priority: 'urgent' },
      { plan: 'pro', po_number: 'PO-1', escalation: 'E' },
    )
    t.equal(full.status, 201, full.text)
  })

  t.test('GET /api/tickets/:id/satisfaction: the rating, 204 without, scoped, satisfaction.read', async (t) => {
    const inDemo = await realCustomer(api, asAdmin, `cond_demo_${suffix}`)
    const made = await createTicket(api, { title: `Rated ${suffix}`, customer_id: inDemo.user_id }, asAgent)
    t.equal(made.status, 201, made.text)
    const url = `/api/tickets/${made.body.id}/satisfaction`
    const none = await api.get(url, asAgent)
    t.equal(none.status, 204, 'no rating yet')
    const rated = await api.post('/api/satisfactions', { ticket_id: made.body.id, rating: 4 }, asAgent)
    t.equal(rated.status, 201, rated.text)
    const got = await api.get(url, asAgent)
    t.equal(got.status, 200)
    t.same(got.body, rated.body, 'the shape /api/satisfactions answers')
    await likeMissing(
      t,
      "another tenant's ticket",
      () => api.get(url, service),
      () => api.get(`/api/tickets/${randomUUID()}/satisfaction`, service),
    )
    const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
    const ticketsOnly = { token: await mint(['tickets.read']), headers: demo }
    isError(t, await api.get(url, ticketsOnly), 403, 'PERMISSION_DENIED', 'tickets.read alone')
    const satisfactionOnly = { token: await mint(['satisfaction.read']), headers: demo }
    t.equal((await api.get(url, satisfactionOnly)).status, 200, 'satisfaction.read is what it takes')
  })
})
