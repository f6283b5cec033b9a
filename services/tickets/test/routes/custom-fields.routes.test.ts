import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME_SUPPORT, as, principal, ticketsApp } from '../helpers/app.ts'
import { makeKnown } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const admin = principal({ user_id: 'admin-1', kind: 'admin', roles: ['admin'], tenant_id: '', workspace_id: '' })

inEachStorageMode(t, 'custom fields', async (t, mode) => {
  const { app, svc } = await ticketsApp(t, mode)
  await makeKnown(svc, ACME_SUPPORT, { customers: ['cust-1'] })
  const h = { agent: await as(agent), other: await as(otherTenant), admin: await as(admin) }
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = h.agent) =>
    app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) })
  const define = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/custom-fields', body)
    t.equal(res.statusCode, 201, `field ${String(body.key)}: ${res.body}`)
    return res.json()
  }

  t.test('create, read, list, update, delete; defaults; key and type fixed', async (t) => {
    const made = await define({ key: 'plan', type: 'select', options: ['free', 'pro'] })
    t.match(made, {
      resource: 'ticket',
      key: 'plan',
      name: 'plan',
      type: 'select',
      required: false,
      active: true,
      options: ['free', 'pro'],
      validation: {},
      show_when: null,
      tenant_id: 'acme',
      workspace_id: 'support',
    })
    t.same((await call('GET', `/api/custom-fields/${made.id}`)).json(), made)
    const list = (await call('GET', '/api/custom-fields?resource=ticket')).json()
    t.ok(list.items.some((f: { id: string }) => f.id === made.id))
    t.equal(list.count, list.items.length)

    const updated = await call('PUT', `/api/custom-fields/${made.id}`, {
      name: 'Plan',
      options: ['free', 'pro', 'team'],
    })
    t.equal(updated.statusCode, 200)
    t.match(updated.json(), { name: 'Plan', options: ['free', 'pro', 'team'] })
    t.equal((await call('PUT', `/api/custom-fields/${made.id}`, { type: 'string' })).statusCode, 400, 'type is fixed')
    t.equal((await call('PUT', `/api/custom-fields/${made.id}`, { key: 'x' })).statusCode, 400, 'key is fixed')
    t.equal(
      (await call('PUT', `/api/custom-fields/${made.id}`, { options: [] })).statusCode,
      400,
      'select needs options',
    )

    const inactive = await call('PUT', `/api/custom-fields/${made.id}`, { active: false })
    t.equal(inactive.json().active, false)
    t.same(
      (await call('GET', '/api/custom-fields?active=true')).json().items.map((f: { key: string }) => f.key),
      [],
      'inactive fields are filtered out',
    )
    const removed = await call('DELETE', `/api/custom-fields/${made.id}`)
    t.equal(removed.statusCode, 200)
    t.same(removed.json(), { id: made.id, message: 'deleted' })
    t.equal((await call('GET', `/api/custom-fields/${made.id}`)).statusCode, 404)
    t.equal((await call('DELETE', `/api/custom-fields/${made.id}`)).statusCode, 404)
  })

  t.test('bad definitions are 400 naming the field; a duplicate key 409', async (t) => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ key: 'Bad-Key', type: 'string' }, /body.key/],
      [{ key: 'x', type: 'color' }, /body.type/],
      [{ key: 'x', type: 'string', validation: { regex: '(a+)+' } }, /body.validation.regex: a repeated group/],
      [{ key: 'x', type: 'string', validation: { regex: '(' } }, /not a valid regular expression/],
      [{ key: 'x', type: 'string', validation: { regex: 'a'.repeat(201) } }, /body.validation.regex/],
      [{ key: 'x', type: 'number', validation: { max_length: 3 } }, /does not apply to a number field/],
      [{ key: 'x', type: 'multiselect' }, /needs at least one option/],
      [{ key: 'x', type: 'string', show_when: { key: 'x', equals: 'a' } }, /cannot depend on itself/],
      [{ key: 'x', type: 'string', show_when: { key: 'plan' } }, /exactly one of/],
      [{ key: 'x', type: 'string', extra: 1 }, /additional/],
    ]
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/custom-fields', body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
      t.match(res.json().message, message)
    }
    await define({ key: 'dup', type: 'string' })
    const again = await call('POST', '/api/custom-fields', { key: 'dup', type: 'number' })
    t.equal(again.statusCode, 409)
    t.equal(again.json().code, 'TICKETS_CUSTOM_FIELD_EXISTS')
    const elsewhere = await call('POST', '/api/custom-fields', { key: 'dup', type: 'number' }, h.other)
    t.equal(elsewhere.statusCode, 201, 'keys are per workspace')
    const unscoped = await call('POST', '/api/custom-fields', { key: 'y', type: 'string' }, h.admin)
    t.equal(unscoped.statusCode, 400, 'an unscoped admin names a scope to create')
  })

  t.test("another tenant's field is answered as missing on every route", async (t) => {
    const mine = await define({ key: 'private_note', type: 'string' })
    const missing = await call('GET', '/api/custom-fields/does-not-exist', undefined, h.other)
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/custom-fields/${mine.id}`, payload, h.other)
      t.equal(res.statusCode, 404, method)
      t.equal(res.json().code, missing.json().code)
      t.equal(res.json().message.replace(mine.id, '<id>'), missing.json().message.replace('does-not-exist', '<id>'))
    }
    t.notOk(
      (await call('GET', '/api/custom-fields', undefined, h.other))
        .json()
        .items.some((f: { id: string }) => f.id === mine.id),
    )
    t.equal(
      (await call('GET', `/api/custom-fields/${mine.id}`, undefined, h.admin)).statusCode,
      200,
      'an unscoped admin sees it',
    )
  })

  t.test('ticket values: checked on create and update, 400 naming each bad field', async (t) => {
    await define({ key: 'tier', type: 'select', options: ['basic', 'gold'], required: true })
    await define({ key: 'seats', type: 'number', validation: { min: 1, max: 500 } })
    await define({ key: 'contract', type: 'string', required: true, show_when: { key: 'tier', equals: 'gold' } })
    await define({ key: 'order_ref', type: 'string', validation: { regex: '^ORD-\\d{4}$' } })
    await define({ key: 'regions', type: 'multiselect', options: ['eu', 'us'], validation: { min_length: 1 } })
    await define({ key: 'renewal', type: 'date' })
    await define({
      key: 'billing_code',
      type: 'string',
      required: true,
      show_when: { key: 'ticket.category', equals: 'billing' },
    })
    const create = (custom_fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      call('POST', '/api/tickets', { title: 'Values', customer_id: 'cust-1', custom_fields, ...extra })

    const bad = await create({ seats: 0, order_ref: 'ord-1', regions: ['mars'], renewal: '2026-13-01', nope: 1 })
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'TICKETS_INVALID_CUSTOM_FIELDS')
    const message = bad.json().message as string
    for (const field of ['nope', 'order_ref', 'regions', 'renewal', 'seats', 'tier']) {
      t.match(message, new RegExp(`body\\.custom_fields\\.${field}: `), `names ${field}`)
    }
    t.notMatch(message, /contract/, 'contract shows only for gold tiers')

    const gold = await create({ tier: 'gold' })
    t.equal(gold.statusCode, 400)
    t.equal(gold.json().message, 'body.custom_fields.contract: required')
    const billing = await create({ tier: 'basic' }, { category: 'billing' })
    t.equal(billing.json().message, 'body.custom_fields.billing_code: required', 'show_when on the ticket category')

    const ok = await create({
      tier: 'gold',
      contract: 'C-1',
      seats: 20,
      order_ref: 'ORD-0042',
      regions: ['eu'],
      renewal: '2027-01-31',
    })
    t.equal(ok.statusCode, 201, ok.body)
    const url = `/api/tickets/${ok.json().id}`
    const merged = await call('PUT', url, { custom_fields: { seats: 25, contract: null, tier: 'basic' } })
    t.equal(merged.statusCode, 200, merged.body)
    t.same(merged.json().custom_fields, {
      tier: 'basic',
      seats: 25,
      order_ref: 'ORD-0042',
      regions: ['eu'],
      renewal: '2027-01-31',
    })
    const dropRequired = await call('PUT', url, { custom_fields: { tier: 'gold' } })
    t.equal(dropRequired.statusCode, 400)
    t.equal(dropRequired.json().message, 'body.custom_fields.contract: required')
    t.equal(
      (await call('PUT', url, { title: 'Only the title' })).statusCode,
      200,
      'a write without values is not re-checked',
    )
    const badType = await call('PUT', url, { custom_fields: { seats: 'many' } })
    t.equal(badType.json().message, 'body.custom_fields.seats: must be a number')
  })

  t.test('show_when {key, equals|in}: a number or boolean is kept as sent and matches its field', async (t) => {
    const scope = { tenant_id: 'acme', workspace_id: 'typed' }
    await makeKnown(svc, scope, { customers: ['cust-1'] })
    const inScope = await as(principal(scope))
    const send = (method: 'POST' | 'PUT', url: string, payload: unknown) => call(method, url, payload, inScope)
    for (const body of [
      { key: 'seats', type: 'number' },
      { key: 'vip', type: 'boolean' },
      { key: 'big_deal', type: 'string', required: true, show_when: { key: 'seats', equals: 500 } },
      { key: 'vip_note', type: 'string', required: true, show_when: { key: 'vip', equals: true } },
      { key: 'tier_note', type: 'string', required: true, show_when: { key: 'seats', in: [10] } },
    ]) {
      const res = await send('POST', '/api/custom-fields', body)
      t.equal(res.statusCode, 201, res.body)
      if (body.show_when) t.same(res.json().show_when, body.show_when, `${body.key}: stored as sent`)
    }
    const create = (custom_fields: Record<string, unknown>) =>
      send('POST', '/api/tickets', { title: 'Typed', customer_id: 'cust-1', custom_fields })
    t.equal((await create({ seats: 500 })).json().message, 'body.custom_fields.big_deal: required', 'number')
    t.equal((await create({ vip: true })).json().message, 'body.custom_fields.vip_note: required', 'boolean')
    t.equal((await create({ seats: 10 })).json().message, 'body.custom_fields.tier_note: required', 'in [10]')
    t.equal((await create({ seats: 9, vip: false })).statusCode, 201, 'neither holds')
  })

  t.test('show_when {all|any: [{field, op, value}]}: strict definitions, required while shown', async (t) => {
    // a workspace of its own: the fields above (one required everywhere) would otherwise apply here too
    const scope = { tenant_id: 'acme', workspace_id: 'conditions' }
    await makeKnown(svc, scope, { customers: ['cust-1'] })
    const inScope = await as(principal(scope))
    const define = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/custom-fields', body, inScope)
      t.equal(res.statusCode, 201, `field ${String(body.key)}: ${res.body}`)
      return res.json()
    }
    const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => call(method, url, payload, inScope)
    await define({ key: 'sw_plan', type: 'select', options: ['free', 'pro', 'team'] })
    await define({ key: 'sw_seats', type: 'number' })
    const poWhen = {
      all: [
        { field: 'ticket.category', op: 'eq', value: 'billing' },
        { field: 'cf.sw_plan', op: 'in', value: ['pro', 'team'] },
      ],
    }
    const po = await define({ key: 'sw_po', type: 'string', required: true, show_when: poWhen })
    t.same(po.show_when, poWhen, 'stored and answered as given')
    t.same((await send('GET', `/api/custom-fields/${po.id}`)).json().show_when, poWhen)
    const escalationWhen = {
      any: [
        { field: 'ticket.priority', op: 'eq', value: 'urgent' },
        { field: 'cf.sw_seats', op: 'exists' },
      ],
    }
    await define({ key: 'sw_escalation', type: 'string', required: true, show_when: escalationWhen })

    const refused: Array<[unknown, string, RegExp]> = [
      [{ all: [{ field: 'cf.sw_nope', op: 'exists' }] }, 'TICKETS_CUSTOM_FIELD_INVALID', /no custom field sw_nope/],
      [{ any: [{ field: 'ticket.owner', op: 'eq', value: 'x' }] }, 'TICKETS_CUSTOM_FIELD_INVALID', /any.0.field/],
      [{ all: [{ field: 'cf.sw_plan', op: 'like', value: 'x' }] }, 'VALIDATION_FAILED', /body.show_when.all.0.op/],
      [{ all: [{ field: 'cf.sw_plan', op: 'eq', value: 'gold' }] }, 'TICKETS_CUSTOM_FIELD_INVALID', /not an option/],
      [
        { all: [{ field: 'cf.sw_plan', op: 'in', value: 'pro' }] },
        'TICKETS_CUSTOM_FIELD_INVALID',
        /a list of 1 to 100/,
      ],
      [{ all: [{ field: 'cf.sw_plan', op: 'eq', value: { a: 1 } }] }, 'TICKETS_CUSTOM_FIELD_INVALID', /one value/],
      [{ key: 'sw_plan', equals: ['pro', 'team'] }, 'TICKETS_CUSTOM_FIELD_INVALID', /show_when.equals: a string/],
      [{ all: [{ field: 'cf.sw_plan', op: 'eq', value: 'pro', extra: 1 }] }, 'VALIDATION_FAILED', /all.0/],
      [{ any: [] }, 'VALIDATION_FAILED', /body.show_when.any/],
      [{ all: [{ field: 'cf.sw_plan', op: 'exists' }], key: 'sw_plan', equals: 'pro' }, 'TICKETS_', /not both/],
      [{ key: 'sw_nope', equals: 'x' }, 'TICKETS_CUSTOM_FIELD_INVALID', /no custom field sw_nope/],
    ]
    for (const [show_when, code, message] of refused) {
      const res = await send('POST', '/api/custom-fields', { key: 'sw_bad', type: 'string', show_when })
      t.equal(res.statusCode, 400, JSON.stringify(show_when))
      t.match(res.json(), { code: new RegExp(`^${code}`), message }, JSON.stringify(show_when))
      const put = await send('PUT', `/api/custom-fields/${po.id}`, { show_when })
      t.equal(put.statusCode, 400, `PUT ${JSON.stringify(show_when)}`)
    }
    // a one-element list stays a list, a number a number (the validator coerces types elsewhere)
    const oneOf = {
      any: [
        { field: 'cf.sw_seats', op: 'in', value: [5] },
        { field: 'cf.sw_seats', op: 'eq', value: 7 },
      ],
    }
    const listed = await define({ key: 'sw_listed', type: 'string', show_when: oneOf })
    t.same(listed.show_when, oneOf, 'stored as sent')
    const renamed = await send('PUT', `/api/custom-fields/${po.id}`, { show_when: { ...poWhen }, name: 'PO number' })
    t.equal(renamed.statusCode, 200, renamed.body)

    const create = (extra: Record<string, unknown>, custom_fields: Record<string, unknown> = {}) =>
      send('POST', '/api/tickets', { title: 'Conditions', customer_id: 'cust-1', ...extra, custom_fields })
    const billingPro = await create({ category: 'billing' }, { sw_plan: 'pro' })
    t.equal(billingPro.statusCode, 400)
    t.equal(billingPro.json().message, 'body.custom_fields.sw_po: required', 'all: both conditions hold')
    t.equal((await create({ category: 'billing' }, { sw_plan: 'free' })).statusCode, 201, 'all: one fails')
    t.equal((await create({ category: 'tech' }, { sw_plan: 'pro' })).statusCode, 201, 'all: the other fails')
    const urgent = await create({ priority: 'urgent' })
    t.equal(urgent.json().message, 'body.custom_fields.sw_escalation: required', 'any: the first holds')
    const seats = await create({}, { sw_seats: 3 })
    t.equal(seats.json().message, 'body.custom_fields.sw_escalation: required', 'any: the second holds')
    const ok = await create({ category: 'billing', priority: 'urgent' }, { sw_plan: 'team', sw_po: 'PO-1' })
    t.equal(ok.statusCode, 400, 'still missing the escalation')
    const full = await create(
      { category: 'billing', priority: 'urgent' },
      { sw_plan: 'team', sw_po: 'PO-1', sw_escalation: 'E-1' },
    )
    t.equal(full.statusCode, 201, full.body)
    const dropped = await send('PUT', `/api/tickets/${full.json().id}`, { custom_fields: { sw_po: null } })
    t.equal(dropped.json().message, 'body.custom_fields.sw_po: required', 'an update is held to it too')
    const switched = await send('PUT', `/api/tickets/${full.json().id}`, {
      custom_fields: { sw_plan: 'free', sw_po: null },
    })
    t.equal(switched.statusCode, 200, 'hidden again once the plan is free')
  })
})
