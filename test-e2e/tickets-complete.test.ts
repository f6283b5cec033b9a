// Tickets, the rest, end to end through the gateway in both run modes: references checked against identity's
// directory (learnt from its events), custom fields and their validation, bulk changes with partial failures, the
// CSV export at its 5,000-row cap, stats and history, auto-assignment, and another tenant's ids answered as missing
// on every new route.
import { randomBytes } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import t from 'tap'
import { login } from './harness/auth.ts'
import { must } from './harness/conversations-kit.ts'
import { client, type Reply, until } from './harness/http.ts'
import { isError, likeMissing } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket, realCustomer } from './harness/tickets-kit.ts'

/** The fields of one CSV line (RFC 4180 quoting, no line breaks inside). */
const csvFields = (line: string) =>
  [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!,
  )
const csvLines = (text: string) => text.split('\n').filter((l) => l.length > 0)

const EXPORT_TICKETS = 5_001
const CONCURRENCY = 32

// 5,001 tickets are created through the gateway in each mode, well past the runner's default 120 s per file.
t.setTimeout(480_000)

inEachMode('tickets complete', {}, async (t, system) => {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const asAdmin = { token: admin.token }
  const asAgent = { token: agent.token }
  // Another tenant, reached by a platform-level service token naming its scope.
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const inB = { token: service, headers: { 'x-tenant-id': `tc${suffix}`, 'x-workspace-id': 'support' } }

  const customer = await realCustomer(api, asAdmin, `tc_cust_${suffix}`)
  const customerB = await realCustomer(api, inB, `tc_custb_${suffix}`)
  const first = await createTicket(api, { title: `First ${suffix}`, customer_id: customer.user_id }, asAgent)
  if (first.status !== 201) throw new Error(`first ticket: ${first.status} ${first.text}`)
  const foreign = await createTicket(api, { title: `Foreign ${suffix}`, customer_id: customerB.user_id }, inB)
  if (foreign.status !== 201) throw new Error(`foreign ticket: ${foreign.status} ${foreign.text}`)
  const ticket = (body: Record<string, unknown>, auth = asAgent) =>
    api.post('/api/tickets', { customer_id: customer.user_id, ...body }, auth)

  t.test('references: customers and agents of the workspace only, stored by user id', async (t) => {
    t.equal(first.body.customer_id, customer.user_id)
    const byRecord = await ticket({ title: `By record id ${suffix}`, customer_id: customer.id })
    t.equal(byRecord.status, 201, byRecord.text)
    t.equal(byRecord.body.customer_id, customer.user_id, 'a customer record id is stored as its user id')
    const unknown = await ticket({ title: 'x', customer_id: `nobody-${suffix}` })
    isError(t, unknown, 400, 'TICKETS_UNKNOWN_CUSTOMER')
    t.match(unknown.body.message, /^body\.customer_id: /)
    isError(t, await ticket({ title: 'x', customer_id: customerB.user_id }), 400, 'TICKETS_UNKNOWN_CUSTOMER')

    const agents = await api.get('/api/agents', asAdmin)
    const record = (agents.body.data as Array<{ id: string; user_id: string }>).find(
      (a) => a.user_id === agent.user.id,
    )!
    const assigned = await api.post(`/api/tickets/${byRecord.body.id}/assign`, { agent_id: record.id }, asAgent)
    t.equal(assigned.status, 200, assigned.text)
    t.equal(assigned.body.agent_id, agent.user.id, 'an agent record id is stored as its user id')
    isError(
      t,
      await api.post(`/api/tickets/${byRecord.body.id}/assign`, { agent_id: `nobody-${suffix}` }, asAgent),
      400,
      'TICKETS_UNKNOWN_AGENT',
    )
  })

  t.test('custom fields: definitions, 400 naming each bad value, show_when, values searchable', async (t) => {
    const define = async (body: Record<string, unknown>) => {
      const res = await api.post('/api/custom-fields', body, asAdmin)
      if (res.status !== 201) throw new Error(`field: ${res.status} ${res.text}`)
      return res.body
    }
    // `plan` is not required: the later subtests create tickets in this workspace without custom values
    const plan = await define({ key: `plan_${suffix}`, type: 'select', options: ['free', 'pro'] })
    await define({ key: `seats_${suffix}`, type: 'number', validation: { min: 1 } })
    await define({
      key: `contract_${suffix}`,
      type: 'string',
      required: true,
      validation: { regex: '^C-\\d{3}$' },
      show_when: { key: `plan_${suffix}`, equals: 'pro' },
    })
    isError(t, await api.post('/api/custom-fields', { key: `plan_${suffix}`, type: 'string' }, asAdmin), 409)
    const unsafe = await api.post(
      '/api/custom-fields',
      { key: `re_${suffix}`, type: 'string', validation: { regex: '(a+)+$' } },
      asAdmin,
    )
    isError(t, unsafe, 400, 'TICKETS_CUSTOM_FIELD_INVALID')
    t.match(unsafe.body.message, /body\.validation\.regex/)
    isError(
      t,
      await api.post('/api/custom-fields', { key: `x_${suffix}`, type: 'string' }, asAgent),
      403,
      'PERMISSION_DENIED',
    )
    const listed = await api.get('/api/custom-fields?resource=ticket', asAgent)
    t.equal(listed.status, 200, 'agents read the definitions')
    t.ok(listed.body.items.some((f: { id: string }) => f.id === plan.id))

    const bad = await ticket({
      title: 'Bad values',
      custom_fields: { [`seats_${suffix}`]: 0, [`colour_${suffix}`]: 'red' },
    })
    isError(t, bad, 400, 'TICKETS_INVALID_CUSTOM_FIELDS')
    for (const key of [`colour_${suffix}`, `seats_${suffix}`]) {
      t.match(bad.body.message, `body.custom_fields.${key}: `, `names ${key}`)
    }
    t.notMatch(bad.body.message, `contract_${suffix}`, 'contract is required only for pro plans')
    const proMissing = await ticket({ title: 'Pro', custom_fields: { [`plan_${suffix}`]: 'pro' } })
    isError(t, proMissing, 400, 'TICKETS_INVALID_CUSTOM_FIELDS')
    t.equal(proMissing.body.message, `body.custom_fields.contract_${suffix}: required`)
    const pro = await ticket({
      title: 'Pro',
      custom_fields: { [`plan_${suffix}`]: 'pro', [`contract_${suffix}`]: 'nope' },
    })
    isError(t, pro, 400, 'TICKETS_INVALID_CUSTOM_FIELDS')
    t.equal(pro.body.message, `body.custom_fields.contract_${suffix}: must match ^C-\\d{3}$`)
    const good = await ticket({
      title: `Pro ok ${suffix}`,
      custom_fields: { [`plan_${suffix}`]: 'pro', [`contract_${suffix}`]: 'C-042', [`seats_${suffix}`]: 12 },
    })
    t.equal(good.status, 201, good.text)
    const found = await api.get(`/api/tickets?cf.plan_${suffix}=pro&cf.seats_${suffix}=12`, asAgent)
    t.same(
      found.body.data.map((x: { id: string }) => x.id),
      [good.body.id],
    )
    isError(t, await api.get(`/api/tickets?cf.nothing_${suffix}=1`, asAgent), 400, 'TICKETS_INVALID_FILTER')
  })

  t.test('bulk: each ticket on its own; failures listed, another tenant’s like a missing one', async (t) => {
    const made: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await ticket({ title: `Bulk ${i} ${suffix}`, tags: ['bulk'] })
      made.push(res.body.id)
    }
    await api.post(`/api/tickets/${made[2]}/close`, { reason: 'done' }, asAgent)
    const res = await api.post(
      '/api/tickets/bulk',
      {
        ticket_ids: [made[0], made[1], made[2], foreign.body.id, `missing-${suffix}`],
        agent_id: agent.user.id,
        status: 'in_progress',
        add_tags: ['triaged'],
      },
      asAgent,
    )
    t.equal(res.status, 200, res.text)
    t.same(res.body.updated, [made[0], made[1]])
    t.same(
      res.body.failed.map((f: { ticket_id: string; code: string }) => [f.ticket_id, f.code]),
      [
        [made[2], 'TICKETS_NOT_ASSIGNABLE'],
        [foreign.body.id, 'TICKETS_NOT_FOUND'],
        [`missing-${suffix}`, 'TICKETS_NOT_FOUND'],
      ],
    )
    const [, foreignFail, missingFail] = res.body.failed
    t.equal(
      foreignFail.error.replace(foreign.body.id, '<id>'),
      missingFail.error.replace(`missing-${suffix}`, '<id>'),
      'the same message as a missing ticket',
    )
    const one = await api.get(`/api/tickets/${made[0]}`, asAgent)
    t.match(one.body, { status: 'in_progress', agent_id: agent.user.id, tags: ['bulk', 'triaged'] })
    const history = await api.get(`/api/tickets/${made[0]}/history`, asAgent)
    t.same(
      history.body.data.map((h: { to_status: string }) => h.to_status),
      ['open', 'assigned', 'in_progress'],
    )
    t.equal((await api.get(`/api/tickets/${foreign.body.id}`, inB)).body.status, 'open', 'the foreign ticket untouched')
    isError(t, await api.post('/api/tickets/bulk', { ticket_ids: [made[0]] }, asAgent), 400, 'TICKETS_INVALID_BULK')
  })

  t.test('another tenant’s ids are answered as missing on every new route', async (t) => {
    const id = foreign.body.id as string
    const missing = `0${id.slice(1)}` === id ? `1${id.slice(1)}` : `0${id.slice(1)}`
    for (const path of ['history', 'conversations']) {
      await likeMissing(
        t,
        `GET /api/tickets/:id/${path}`,
        () => api.get(`/api/tickets/${id}/${path}`, asAgent),
        () => api.get(`/api/tickets/${missing}/${path}`, asAgent),
      )
    }
    const fieldB = await api.post('/api/custom-fields', { key: `secret_${suffix}`, type: 'string' }, inB)
    t.equal(fieldB.status, 201, fieldB.text)
    const otherId =
      `0${fieldB.body.id.slice(1)}` === fieldB.body.id ? `1${fieldB.body.id.slice(1)}` : `0${fieldB.body.id.slice(1)}`
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? { name: 'pwned' } : undefined
      await likeMissing(
        t,
        `${method} /api/custom-fields/:id`,
        () => api.call(method, `/api/custom-fields/${fieldB.body.id}`, { ...asAdmin, body }),
        () => api.call(method, `/api/custom-fields/${otherId}`, { ...asAdmin, body }),
      )
    }
    t.equal((await api.get(`/api/custom-fields/${fieldB.body.id}`, inB)).body.name, `secret_${suffix}`, 'untouched')
    const stats = await api.get('/api/tickets/stats', inB)
    t.equal(stats.body.total, 1, "stats count the scope's own tickets")
    const exported = await api.get(`/api/tickets/export?search=${suffix}`, asAgent)
    t.notMatch(exported.text, `Foreign ${suffix}`, 'nor does the export')
    isError(t, await api.get(`/api/tickets?cf.secret_${suffix}=x`, asAgent), 400, 'TICKETS_INVALID_FILTER')
  })

  t.test('auto-assignment: the online agent under capacity; nobody online leaves it open', async (t) => {
    const agents = await api.get('/api/agents', asAdmin)
    const records = agents.body.data as Array<{ id: string; user_id: string }>
    const mine = records.find((a) => a.user_id === agent.user.id)!
    // the workspace turns it on (the service default is off); an agent may not
    t.match(must(await api.get('/api/tickets/settings', asAgent), 200, 'settings'), {
      auto_assign: false,
      is_default: true,
    })
    isError(t, await api.put('/api/tickets/settings', { auto_assign: true }, asAgent), 403, 'FORBIDDEN')
    t.match(must(await api.put('/api/tickets/settings', { auto_assign: true }, asAdmin), 200, 'turn on'), {
      auto_assign: true,
      is_default: false,
    })
    t.teardown(async () => {
      await api.put('/api/tickets/settings', { auto_assign: false }, asAdmin)
    })
    t.equal((await ticket({ title: `Queued ${suffix}` })).body.agent_id, null, 'everyone offline: open, unassigned')
    t.equal((await api.post(`/api/agents/${mine.id}/online`, undefined, asAdmin)).status, 200)
    t.teardown(async () => {
      await api.post(`/api/agents/${mine.id}/offline`, undefined, asAdmin)
    })
    const auto = await until('the agent to be online for tickets', async () => {
      const res = await ticket({ title: `Auto ${suffix}` })
      return res.body.agent_id ? res : undefined
    })
    t.match(auto.body, { status: 'assigned', agent_id: agent.user.id })
  })

  t.test(`export: ${EXPORT_TICKETS} tickets, capped at 5000, default 1000, cf columns`, async (t) => {
    const category = `export-${suffix}`
    const started = Date.now()
    const failures: Reply[] = []
    const fieldsOf = (i: number) =>
      i % 2 ? { [`plan_${suffix}`]: 'free' } : { [`plan_${suffix}`]: 'pro', [`contract_${suffix}`]: 'C-001' }
    // The formula-titled ticket is made alone and first, so it is the oldest of the category whatever the
    // concurrent batch does (with several replicas, a later request may otherwise be stored first).
    const evil = await ticket({ title: '=HYPERLINK("http://evil")', category, custom_fields: fieldsOf(0) })
    if (evil.status !== 201) failures.push(evil)
    let next = 1
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < EXPORT_TICKETS; i = next++) {
          const res = await ticket({
            title: `Export ${i}`,
            category,
            custom_fields: fieldsOf(i),
          })
          if (res.status !== 201) failures.push(res)
        }
      }),
    )
    t.equal(failures.length, 0, failures[0]?.text ?? 'all created')
    t.comment(`${EXPORT_TICKETS} tickets created in ${Date.now() - started} ms`)

    const capped = await api.get(`/api/tickets/export?category=${category}&limit=100000`, asAgent)
    t.equal(capped.status, 200)
    t.match(capped.headers.get('content-type'), /^text\/csv/)
    t.match(capped.headers.get('content-disposition'), /attachment; filename="tickets_\d{8}_\d{6}\.csv"/)
    const lines = csvLines(capped.text)
    const header = csvFields(lines[0]!)
    t.equal(lines.length, 5000 + 1, 'the cap: 5000 rows and the header')
    t.ok(header.includes(`cf.plan_${suffix}`), 'a column per active custom field')
    const plan = header.indexOf(`cf.plan_${suffix}`)
    const title = header.indexOf('title')
    const rows = lines.slice(1).map(csvFields)
    t.ok(
      rows.every((r) => r[plan] === 'free' || r[plan] === 'pro'),
      'every row carries its value',
    )
    t.notOk(
      rows.some((r) => r[title] === '=HYPERLINK("http://evil")'),
      'no cell starts a formula',
    )
    const oldestFirst = await api.get(
      `/api/tickets/export?category=${category}&limit=5000&sort_by=created_at&sort_order=asc`,
      asAgent,
    )
    t.ok(
      csvLines(oldestFirst.text)
        .slice(1)
        .some((line) => csvFields(line)[title] === `'=HYPERLINK("http://evil")`),
      'neutralised with a quote',
    )
    t.equal(
      csvLines((await api.get(`/api/tickets/export?category=${category}`, asAgent)).text).length,
      1000 + 1,
      'default 1000',
    )
    const pro = await api.get(`/api/tickets/export?category=${category}&cf.plan_${suffix}=pro&limit=5000`, asAgent)
    t.equal(csvLines(pro.text).length - 1, Math.ceil(EXPORT_TICKETS / 2), 'filters apply')
    const list = await api.get(`/api/tickets?category=${category}&page_size=1`, asAgent)
    t.equal(list.body.total, EXPORT_TICKETS)
  })
})
