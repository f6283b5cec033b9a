import { inEachStorageMode } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { seedAgent, seedCustomer } from '../helpers/omni.ts'
import { IdentityEvents, publishIdentity, QUIET_QUEUE, seedSession } from '../helpers/queue.ts'

// A record of one tenant never points at another tenant's person: every person a request body names is a customer
// or an agent of the record's own scope, and an id of another tenant or workspace is answered exactly like an id
// nobody has (README "References").

const WAIT_MS = 400
const HOUR = 3_600_000
const at = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString()
const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }
const SALES = { tenant_id: 'acme', workspace_id: 'sales' }

inEachStorageMode(t, 'references: the persons a request names', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode, {
    env: { ...QUIET_QUEUE, REFERENCE_WAIT_MS: String(WAIT_MS) },
  })
  const agent = await as(principal())
  const admin = await as(
    principal({
      user_id: 'admin-1',
      kind: 'admin',
      roles: ['admin'],
      permissions: ['*'],
      tenant_id: '',
      workspace_id: '',
    }),
  )
  await seedAgent(svc, { user_id: 'agent-1', name: 'Ada' })
  await seedAgent(svc, { user_id: 'agent-2', name: 'Bob' })
  await seedAgent(svc, { user_id: 'agent-g', ...GLOBEX })
  await seedAgent(svc, { user_id: 'agent-s', ...SALES })
  await seedCustomer(svc, { user_id: 'cust-a' })
  await seedCustomer(svc, { user_id: 'cust-g', ...GLOBEX })
  await seedCustomer(svc, { user_id: 'cust-s', ...SALES })

  const post = (url: string, payload: object, headers = agent) => app.inject({ method: 'POST', url, payload, headers })
  type Reply = Awaited<ReturnType<typeof post>>
  const count = async (table: 'sessions' | 'shifts' | 'transfers') =>
    Number(
      (
        await svc.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  /**
   * Each foreign id against an id nobody has: 400 with the same code and message (the id aside) naming the field,
   * and the same timing class — every miss looks for the whole window before it is refused.
   */
  async function likeUnknown(
    t: Test,
    call: (ref: string) => Promise<Reply>,
    foreign: string[],
    expected: { code: string; field: string; noun: 'customer' | 'agent' },
  ) {
    const answers: Array<{ ref: string; res: Reply; ms: number }> = []
    for (const ref of [...foreign, `nobody-${mode}`]) {
      const started = performance.now()
      const res = await call(ref)
      answers.push({ ref, res, ms: performance.now() - started })
    }
    for (const { ref, res, ms } of answers) {
      t.equal(res.statusCode, 400, `${ref}: 400`)
      const body = res.json()
      t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'request_id'], `${ref}: the error body`)
      t.equal(body.code, expected.code, `${ref}: code`)
      t.equal(body.message, `body.${expected.field}: no ${expected.noun} ${ref} in this workspace`, `${ref}: message`)
      t.ok(ms >= WAIT_MS - 5, `${ref}: refused after the whole window (${Math.round(ms)} ms)`)
    }
  }

  t.test('POST /api/omni/sessions: the customer is one of the scope, stored by user id', async (t) => {
    const before = await count('sessions')
    await likeUnknown(t, (ref) => post('/api/omni/sessions', { customer_id: ref }), ['cust-g', 'cust-s'], {
      code: 'CONVERSATIONS_UNKNOWN_CUSTOMER',
      field: 'customer_id',
      noun: 'customer',
    })
    t.equal(await count('sessions'), before, 'no session was created')

    const byUser = await post('/api/omni/sessions', { customer_id: 'cust-a' })
    t.equal(byUser.statusCode, 201)
    t.equal(byUser.json().customer_id, 'cust-a')
    const byRecord = await post('/api/omni/sessions', { customer_id: 'cu-cust-a' })
    t.equal(byRecord.statusCode, 201)
    t.equal(byRecord.json().customer_id, 'cust-a', 'named by its record id, stored by its user id')
    const selected = await post(
      '/api/omni/sessions',
      { customer_id: 'cust-g' },
      await as({ ...principal(), ...GLOBEX }),
    )
    t.equal(selected.statusCode, 201, "globex's own customer, in globex")
  })

  t.test('POST /api/omni/sessions: the agent it is assigned to is one of the scope', async (t) => {
    const before = await count('sessions')
    await likeUnknown(
      t,
      (ref) => post('/api/omni/sessions', { customer_id: 'cust-a', agent_id: ref }),
      ['agent-g', 'agent-s'],
      { code: 'CONVERSATIONS_UNKNOWN_AGENT', field: 'agent_id', noun: 'agent' },
    )
    t.equal(await count('sessions'), before, 'no session was created')
    const byRecord = await post('/api/omni/sessions', { customer_id: 'cust-a', agent_id: 'ag-agent-2-acme-support' })
    t.equal(byRecord.statusCode, 201)
    t.equal(byRecord.json().agent_id, 'agent-2', 'named by its record id, stored by its user id')
  })

  t.test('a customer made a moment before the session is accepted (the projection catches up)', async (t) => {
    const facts = { customer_id: `cu-new-${mode}`, user_id: `new-${mode}`, name: 'New', source: 'web', tags: [] }
    await publishIdentity(svc, IdentityEvents.customerUpserted, facts)
    const res = await post('/api/omni/sessions', { customer_id: `new-${mode}` })
    t.equal(res.statusCode, 201, res.body)
    t.equal(res.json().customer_id, `new-${mode}`)
    const late = { ...facts, customer_id: `cu-late-${mode}`, user_id: `late-${mode}` }
    const asked = post('/api/omni/sessions', { customer_id: `cu-late-${mode}` })
    setTimeout(() => void publishIdentity(svc, IdentityEvents.customerUpserted, late), 50)
    const waited = await asked
    t.equal(waited.statusCode, 201, 'its event arrived while the request looked')
    t.equal(waited.json().customer_id, `late-${mode}`)
  })

  t.test('assign, transfer and to-agent name an agent of the session’s scope', async (t) => {
    const s = await seedSession(svc, { customer_id: 'cust-a' })
    const url = `/api/omni/sessions/${s.id}`
    const transfers = await count('transfers')
    const noun = 'agent' as const
    const code = 'CONVERSATIONS_UNKNOWN_AGENT'
    const foreign = ['agent-g', 'agent-s']
    await likeUnknown(t, (ref) => post(`${url}/assign`, { agent_id: ref }), foreign, { code, field: 'agent_id', noun })
    await likeUnknown(t, (ref) => post(`${url}/transfer`, { to_agent_id: ref }), foreign, {
      code,
      field: 'to_agent_id',
      noun,
    })
    await likeUnknown(
      t,
      (ref) => post('/api/session-transfer/to-agent', { session_id: s.id, target_agent_id: ref }),
      foreign,
      { code, field: 'target_agent_id', noun },
    )
    t.equal(await count('transfers'), transfers, 'no hand-over was recorded')
    t.match((await app.inject({ method: 'GET', url, headers: agent })).json(), { agent_id: null, message_count: 0 })
    const byRecord = await post(`${url}/assign`, { agent_id: 'ag-agent-1-acme-support' })
    t.equal(byRecord.statusCode, 200)
    t.equal(byRecord.json().agent_id, 'agent-1', 'named by its record id, assigned by its user id')
    // a missing session is still the session's 404, whoever is named
    const missing = await post('/api/omni/sessions/nope/assign', { agent_id: 'agent-g' })
    t.equal(missing.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
  })

  t.test("an unscoped admin's hand-over is checked in the session's scope, not its own", async (t) => {
    const g = await seedSession(svc, { ...GLOBEX, customer_id: 'cust-g' })
    const refused = await post(`/api/omni/sessions/${g.id}/assign`, { agent_id: 'agent-1' }, admin)
    t.equal(refused.statusCode, 400, "an acme agent for globex's session")
    t.equal(refused.json().code, 'CONVERSATIONS_UNKNOWN_AGENT')
    const taken = await post(`/api/omni/sessions/${g.id}/assign`, { agent_id: 'agent-g' }, admin)
    t.equal(taken.statusCode, 200)
    t.equal(taken.json().agent_id, 'agent-g')
  })

  t.test('POST /api/shifts: the agent is one of the scope, stored by user id', async (t) => {
    const shift = (ref: string) => ({ agent_id: ref, shift_type: 'morning', start_time: at(1), end_time: at(9) })
    const before = await count('shifts')
    await likeUnknown(t, (ref) => post('/api/shifts', shift(ref)), ['agent-g', 'agent-s'], {
      code: 'CONVERSATIONS_UNKNOWN_AGENT',
      field: 'agent_id',
      noun: 'agent',
    })
    t.equal(await count('shifts'), before, 'no shift was created')
    const byRecord = await post('/api/shifts', shift('ag-agent-2-acme-support'))
    t.equal(byRecord.statusCode, 201)
    t.equal(byRecord.json().agent_id, 'agent-2')
  })
})
