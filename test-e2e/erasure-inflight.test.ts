// Audit records still in flight when a customer is erased, in both run modes: the erasure completes first, then
// records about the person arrive — over the gateway's hand-over (its in-memory queue, both modes) and, in the fleet,
// over NATS JetStream (a backlog, a replayed dead letter) — and once they have landed no audit API (the list, each
// record's detail and diff, the CSV export) returns the person's name, e-mail, phone or what they wrote, while the
// records keep their action. A record that does not concern them is stored as sent.
import { signInternalPrincipal } from '@switchboard/auth'
import { AUDIT_RECORDED_TYPE, type AuditRecordData, PRINCIPAL_HEADER } from '@switchboard/contracts'
import { createJetStreamBus, newEnvelope } from '@switchboard/events'
import { silentLogger } from '@switchboard/testing'
import { conversationsKit, hubPrincipal, must, type Scope } from './harness/conversations-kit.ts'
import { client, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

function leaks(body: unknown, markers: readonly string[]): string[] {
  const text = (typeof body === 'string' ? body : JSON.stringify(body ?? null)).toLowerCase()
  return markers.filter((m) => text.includes(m.toLowerCase()))
}

/** A record as a unit's audit hook would publish it. */
function record(scope: Scope, data: Partial<AuditRecordData> & Pick<AuditRecordData, 'action' | 'request_id'>) {
  const full: AuditRecordData = {
    actor_user_id: 'agent-e2e',
    principal_kind: 'agent',
    resource_type: 'customers',
    resource_id: '',
    route: '/api/customers/:id',
    method: 'PUT',
    status_code: 200,
    success: true,
    client_ip: '198.51.100.7',
    user_agent: 'e2e',
    request_json: null,
    before_json: null,
    after_json: null,
    ...data,
  }
  return newEnvelope({
    type: AUDIT_RECORDED_TYPE,
    ...scope,
    actor: { user_id: full.actor_user_id, kind: full.principal_kind },
    data: full,
  })
}

inEachMode('erasure: audit records arriving after it are stored masked', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api, suffix } = kit
  const scope = kit.freshScope('eri')
  const staff = kit.svc(scope)

  const name = `Ottilie Nachzuegler ${suffix}`
  const email = `ottilie_${suffix}@e2e.example.com`
  const phone = `+4940${suffix.replace(/\D/g, '3').padEnd(6, '3')}22`
  const said = `the late parcel LP${suffix}Q`
  const markers = [name, email, phone, said, `Nachzuegler ${suffix}`, `LP${suffix}Q`]
  const username = `ottilie_${suffix}`
  const customer = must(
    await api.post(
      '/api/customers',
      { name, email, phone, username, password: `Pw-${username}-0123456789`, source: 'web' },
      staff,
    ),
    201,
    'customer',
  ) as { id: string; user_id: string }

  t.test('the erasure completes', async (t) => {
    await until('the customer audited', async () => {
      const r = await api.get('/api/audit/logs?action=customers.create&page_size=50', staff)
      return (r.body?.data as any[] | undefined)?.find((x) => x.resource_id === customer.id)
    })
    const started = await api.post(`/api/customers/${customer.id}/erasure`, undefined, staff)
    t.equal(started.status, 202, started.text)
    const done = await until(
      'the erasure completed',
      async () => {
        const r = await api.get(`/api/customers/${customer.id}/erasure`, staff)
        return r.body?.status === 'completed' ? r.body : undefined
      },
      60_000,
    )
    t.equal(done.status, 'completed')
    const logs = must(await api.get('/api/audit/logs?page_size=200', staff), 200, 'audit')
    t.same(leaks(logs, markers), [], 'the records stored before it are masked')
  })

  // After the erasure: the person's own message, an agent's update of their record, an agent's note on another
  // resource naming them by e-mail, and one that is not about them.
  const late = [
    record(scope, {
      action: 'sessions.message',
      request_id: `late-own-${suffix}`,
      actor_user_id: customer.user_id,
      principal_kind: 'customer',
      resource_type: 'sessions',
      resource_id: `sess-late-${suffix}`,
      route: '/api/omni/sessions/:id/messages',
      method: 'POST',
      request_json: { content: `${said} — call me on ${phone}` },
    }),
    record(scope, {
      action: 'customers.update',
      request_id: `late-update-${suffix}`,
      resource_id: customer.id,
      request_json: { name, phone },
      before_json: { name, email, phone },
      after_json: { name: `${name} Jr`, email, phone },
    }),
    record(scope, {
      action: 'tickets.update',
      request_id: `late-note-${suffix}`,
      resource_type: 'tickets',
      resource_id: `tk-late-${suffix}`,
      route: '/api/tickets/:id',
      request_json: { note: `Forwarded to ${email.toUpperCase()}` },
    }),
  ]
  const unrelated = record(scope, {
    action: 'tickets.update',
    request_id: `late-other-${suffix}`,
    resource_type: 'tickets',
    resource_id: `tk-other-${suffix}`,
    route: '/api/tickets/:id',
    request_json: { note: `unrelated note ${suffix}` },
  })

  t.test('records delivered after it land', async (t) => {
    // the gateway's hand-over (its queue of records held while audit was away): straight to audit, as the gateway
    const audit = client(system.serviceUrls.audit![0]!)
    const gateway = { ...hubPrincipal({ tenant_id: '', workspace_id: '' }, 'gateway'), token_tenant_id: '' }
    const header = await signInternalPrincipal(system.env.INTERNAL_SECRET!, gateway, 3600)
    const bus = system.mode === 'fleet' ? late.slice(0, 1) : []
    const handed = [...late.slice(bus.length), unrelated]
    const r = await audit.post(
      '/internal/audit/records',
      { records: handed },
      { headers: { [PRINCIPAL_HEADER]: header } },
    )
    t.same(must(r, 200, 'hand-over'), { stored: handed.length, duplicates: 0, rejected: [] })
    if (bus.length) {
      // the fleet's JetStream: a record published late (a backlog, a replayed dead letter)
      const [, natsUrl, , prefix] = system.dlqArgs('')
      const js = await createJetStreamBus({ url: natsUrl!, prefix: prefix!, logger: silentLogger() })
      try {
        for (const e of bus) await js.publish('audit.conversations.recorded', e)
      } finally {
        await js.close()
      }
    }
    const wanted = [...late, unrelated].map((e) => e.data.request_id)
    const landed = await until('the late records listed', async () => {
      const list = await api.get('/api/audit/logs?page_size=200', staff)
      const rows = ((list.body?.data ?? []) as any[]).filter((x) => wanted.includes(x.request_id))
      return rows.length === wanted.length ? rows : undefined
    })
    t.equal(landed.length, 4)
  })

  t.test('no audit API returns the person; the actions are kept', async (t) => {
    const list = must(await api.get('/api/audit/logs?page_size=200', staff), 200, 'list')
    t.same(leaks(list, markers), [], 'the list')
    const rows = (list.data as any[]).filter((x) => String(x.request_id).startsWith('late-'))
    t.same(rows.map((x) => x.action).sort(), [
      'customers.update',
      'sessions.message',
      'tickets.update',
      'tickets.update',
    ])
    for (const row of rows) {
      const detail = must(await api.get(`/api/audit/logs/${row.id}`, staff), 200, 'detail')
      t.same(leaks(detail, markers), [], `the detail of ${row.request_id}`)
      const diff = must(await api.get(`/api/audit/logs/${row.id}/diff`, staff), 200, 'diff')
      t.same(leaks(diff, markers), [], `the diff of ${row.request_id}`)
    }
    const own = rows.find((x) => x.request_id === `late-own-${suffix}`)
    t.match(own, { actor_user_id: customer.user_id, client_ip: '', user_agent: '' }, 'their own request: no address')
    const other = rows.find((x) => x.request_id === `late-other-${suffix}`)
    t.same(other.request_json, { note: `unrelated note ${suffix}` }, 'a record not about them is kept as sent')
    const csv = await api.get('/api/audit/logs/export?limit=5000', staff)
    t.equal(csv.status, 200)
    t.ok(csv.text.includes(`late-own-${suffix}`), 'the CSV holds the late records')
    t.same(leaks(csv.text, markers), [], 'the CSV export')
  })
})
