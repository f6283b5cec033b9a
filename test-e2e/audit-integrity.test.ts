// Nothing lost from the audit log (issue 19 §1), end to end through the gateway in both run modes: the outside probe's
// hostile mix — NUL characters, lone surrogates, bad escapes, invalid and empty bodies, `%00` path ids — sent over 8
// concurrent connections, plus clients that hang up before the answer. Every management write leaves exactly one audit
// record, stored on SQLite (embedded) and PostgreSQL (fleet) alike, hostile text replaced by visible markers and the
// record flagged `sanitised`; the audit consumer dead-letters nothing.
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import t from 'tap'
import { login } from './harness/auth.ts'
import { client, until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

// both run modes, the fleet started here: past tap's 120 s per file once on a loaded 2-core machine
t.setTimeout(300_000)

interface Probe {
  name: string
  method: string
  path: string
  body?: string
  as: 'admin' | 'agent'
  /** the record says it was sanitised (its text held a NUL or a lone surrogate) */
  sanitised: boolean
}

/** A probe's request id: what finds its record. */
const requestId = (name: string) => `ai-${name}-${randomBytes(5).toString('hex')}`

inEachMode('audit integrity', {}, async (t, system) => {
  const api = client(system.url)
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const tokens = { admin: admin.token, agent: agent.token }
  const macro = await api.post('/api/macros', { name: 'probe target', content: 'hello' }, { token: admin.token })
  t.equal(macro.status, 201, macro.text)
  const id = macro.body.id as string
  const audit = await system.serviceDatabase('audit')
  t.teardown(() => audit.close())

  /** request id → how many records and whether each was flagged, read from the audit service's own table */
  async function recordsOf(ids: string[]) {
    const rows: Array<{ request_id: string; sanitised: unknown; status_code: number }> = []
    for (let i = 0; i < ids.length; i += 500) {
      rows.push(
        ...(await audit.db
          .selectFrom('audit_logs')
          .select(['request_id', 'sanitised', 'status_code'])
          .where('request_id', 'in', ids.slice(i, i + 500))
          .execute()),
      )
    }
    const by = new Map<string, typeof rows>()
    for (const r of rows) by.set(r.request_id, [...(by.get(r.request_id) ?? []), r])
    return by
  }
  const flagged = (v: unknown) => v === true || v === 1

  async function allRecorded(sent: Array<{ id: string }>) {
    const ids = sent.map((s) => s.id)
    return until(
      `${ids.length} audit records`,
      async () => {
        const by = await recordsOf(ids)
        return ids.every((i) => by.has(i)) ? by : undefined
      },
      60_000,
      300,
    )
  }

  t.test("the probe's mix over 8 concurrent connections: one audit record per management write", async (t) => {
    const probes: Probe[] = [
      {
        name: 'nul-body',
        method: 'PUT',
        path: `/api/macros/${id}`,
        body: '{"name":"a\\u0000b"}',
        as: 'admin',
        sanitised: true,
      },
      {
        name: 'nul-key',
        method: 'POST',
        path: '/api/tickets',
        body: '{"ti\\u0000tle":"x"}',
        as: 'admin',
        sanitised: true,
      },
      {
        name: 'lone-high',
        method: 'PUT',
        path: `/api/macros/${id}`,
        body: '{"name":"a\\ud800"}',
        as: 'admin',
        sanitised: true,
      },
      {
        name: 'lone-low-key',
        method: 'POST',
        path: '/api/customers',
        body: '{"\\udc00":"x"}',
        as: 'admin',
        sanitised: true,
      },
      {
        name: 'bad-escape',
        method: 'PUT',
        path: `/api/macros/${id}`,
        body: '{"name":"\\x41"}',
        as: 'admin',
        sanitised: false,
      },
      {
        name: 'bad-unicode',
        method: 'POST',
        path: '/api/tickets',
        body: '{"title":"\\u12"}',
        as: 'admin',
        sanitised: false,
      },
      { name: 'invalid', method: 'PUT', path: `/api/macros/${id}`, body: '{"name":', as: 'admin', sanitised: false },
      { name: 'empty', method: 'POST', path: '/api/custom-fields', body: '', as: 'admin', sanitised: false },
      {
        name: 'nul-id-service',
        method: 'PUT',
        path: '/api/macros/%00',
        body: '{"name":"x"}',
        as: 'admin',
        sanitised: true,
      },
      {
        name: 'nul-id-revoke',
        method: 'POST',
        path: '/api/security/users/%00/revoke-tokens',
        as: 'admin',
        sanitised: true,
      },
      // refused by the gateway (an agent may not), the record handed from the gateway to the audit service
      {
        name: 'nul-id-gateway',
        method: 'POST',
        path: '/api/security/users/%00/revoke-tokens',
        as: 'agent',
        sanitised: true,
      },
      {
        name: 'nul-body-gateway',
        method: 'PUT',
        path: `/api/macros/${id}`,
        body: '{"name":"\\u0000"}',
        as: 'agent',
        sanitised: false,
      },
      {
        name: 'valid',
        method: 'PUT',
        path: `/api/macros/${id}`,
        body: '{"name":"still fine"}',
        as: 'admin',
        sanitised: false,
      },
    ]
    // 24 rounds of the mix, shared by 8 connections
    const jobs = Array.from({ length: 24 }, () => probes).flat()
    const sent: Array<{ id: string; probe: Probe; status: number }> = []
    let next = 0
    const connection = async () => {
      while (next < jobs.length) {
        const probe = jobs[next++]!
        const rid = requestId(probe.name)
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[probe.as]}`, 'x-request-id': rid }
        if (probe.body !== undefined) headers['content-type'] = 'application/json'
        const res = await fetch(new URL(probe.path, system.url), { method: probe.method, headers, body: probe.body })
        await res.arrayBuffer()
        t.ok(res.status < 500, `${probe.name}: ${res.status}, never a 5xx`)
        sent.push({ id: rid, probe, status: res.status })
      }
    }
    await Promise.all(Array.from({ length: 8 }, connection))
    const by = await allRecorded(sent)
    for (const s of sent) {
      const records = by.get(s.id) ?? []
      t.equal(records.length, 1, `${s.probe.name} (${s.status}): one record`)
      t.equal(records[0]?.status_code, s.status, `${s.probe.name}: the status answered`)
      t.equal(flagged(records[0]?.sanitised), s.probe.sanitised, `${s.probe.name}: sanitised flag`)
    }
    const api404 = sent.filter((s) => s.probe.name === 'nul-id-gateway')
    t.ok(
      api404.every((s) => s.status === 403),
      'the agent is refused by the gateway',
    )
  })

  t.test('clients that hang up in the middle of their body still leave one record each', async (t) => {
    const gateway = new URL(system.url)
    // Headers and half the declared body, then a reset once the gateway has surely read them: the write is never
    // forwarded (no service records it) and, before, no `finish` meant no onResponse and no record at the gateway.
    const halfAndHangUp = (head: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(gateway.port), gateway.hostname, () => {
          socket.write(`${head}content-type: application/json\r\ncontent-length: 40\r\n\r\n{"name":`)
          setTimeout(() => {
            socket.resetAndDestroy()
            resolve()
          }, 150)
        })
        socket.on('error', () => resolve())
      })
    const sent: Array<{ id: string }> = []
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; i < 4; i++) {
          const rid = requestId('hangup')
          sent.push({ id: rid })
          const who = (c + i) % 2 === 0 ? admin.token : agent.token
          await halfAndHangUp(
            `PUT /api/macros/${id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${who}\r\nx-request-id: ${rid}\r\n`,
          )
        }
      }),
    )
    const by = await allRecorded(sent)
    for (const s of sent) t.equal(by.get(s.id)?.length, 1, `${s.id}: one record`)
  })

  t.test('the audit consumer dead-lettered nothing', async (t) => {
    const res = await api.get('/api/ops/dead-letters?consumer=audit-recorder', { token: admin.token })
    t.equal(res.status, 200, res.text)
    t.same(res.body.items, [], 'no dead letter')
  })
})
