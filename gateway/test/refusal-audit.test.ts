// The gateway's own audit records (issue 19 §1): handed to the audit service over HTTP (here the upstream's stand-in of
// its hand-over endpoint), never published on the bus — so a NATS outage loses none — with text made storable, held
// and retried while the audit service does not answer, and kept when the client resets its connection.
import { createServer, type Socket, connect as tcpConnect } from 'node:net'
import { AUDIT_RECORDED_TYPE, PRINCIPAL_HEADER } from '@switchboard/contracts'
import { createJetStreamBus, newEnvelope } from '@switchboard/events'
import { NUL_MARKER } from '@switchboard/platform'
import { engineUrls, uniqueId, waitFor } from '@switchboard/testing'
import t from 'tap'
import { accessToken, bearer, harness, logger, metricValue, seedUser } from './fixtures/gateway.ts'

/** A TCP proxy this test owns in front of the shared NATS: frozen, it forwards nothing (NATS "down" for the gateway). */
async function natsProxy(target: URL) {
  const sockets = new Set<Socket>()
  const held: Array<() => void> = []
  let frozen = false
  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => (frozen ? held.push(() => to.write(chunk)) : to.write(chunk)))
    from.on('close', () => to.destroy())
    from.on('error', () => to.destroy())
  }
  const server = createServer((client) => {
    const upstream = tcpConnect({ host: target.hostname, port: Number(target.port || 4222) })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
    }
    pipe(client, upstream)
    pipe(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve))
  return {
    url: `nats://127.0.0.1:${(server.address() as { port: number }).port}`,
    freeze: () => {
      frozen = true
    },
    thaw: () => {
      frozen = false
      for (const send of held.splice(0)) send()
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of sockets) s.destroy()
      await closed
    },
  }
}

t.test('a refusal with a %00 path id: one record, its id a visible marker, flagged', async (t) => {
  const h = await harness(t)
  const agent = await accessToken(seedUser(h))
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/security/users/%00/revoke-tokens',
    headers: { ...bearer(agent), 'x-request-id': 'nul-id-1' },
  })
  t.equal(res.statusCode, 403)
  const record = await waitFor(async () => h.upstream.audit.records.find((r) => r.request_id === 'nul-id-1'))
  t.equal(record.type, AUDIT_RECORDED_TYPE)
  t.match(record.data, {
    action: 'security.revoke_tokens',
    resource_id: NUL_MARKER,
    route: '/api/security/users/:id/revoke-tokens',
    status_code: 403,
    success: false,
    sanitised: true,
  })
  t.notMatch(JSON.stringify(record), /\\u0000/, 'nothing PostgreSQL would refuse')
})

t.test('NATS unreachable: refusals are still handed to the audit service, none lost', async (t) => {
  const proxy = await natsProxy(new URL(engineUrls().natsUrl))
  const bus = await createJetStreamBus({ url: proxy.url, prefix: uniqueId('gwa'), logger, name: 'gateway-test' })
  t.teardown(async () => {
    proxy.thaw()
    await bus.close().catch(() => {})
    await proxy.close()
  })
  const h = await harness(t, { bus })
  const agent = await accessToken(seedUser(h))
  proxy.freeze()
  // what the gateway used to do with these records: a publish that cannot complete while NATS does not answer
  const publish = bus.publish(
    'audit.gateway.recorded',
    newEnvelope({
      type: AUDIT_RECORDED_TYPE,
      tenant_id: 'acme',
      workspace_id: 'support',
      actor: { user_id: 'x', kind: 'agent' },
      data: {},
    }),
  )
  const outcome = await Promise.race([
    publish.then(
      () => 'published',
      () => 'failed',
    ),
    new Promise((r) => setTimeout(() => r('no answer'), 1000)),
  ])
  t.not(outcome, 'published', `the bus is down for the gateway (${outcome})`)
  const ids: string[] = []
  for (let i = 0; i < 20; i++) {
    const id = `outage-${i}`
    ids.push(id)
    const res = await h.app.inject({
      method: 'DELETE',
      url: `/api/tickets/t${i}`,
      headers: { ...bearer(await accessToken(seedUser(h, { claims: { roles: ['customer'] } }))), 'x-request-id': id },
    })
    t.equal(res.statusCode, 403)
  }
  const denied = await h.app.inject({
    method: 'POST',
    url: '/api/customers/c1/notes',
    headers: { ...bearer(agent), 'x-request-id': 'outage-agent' },
  })
  t.equal(denied.statusCode, 403)
  ids.push('outage-agent')
  await waitFor(async () =>
    ids.every((id) => h.upstream.audit.records.some((r) => r.request_id === id)) ? true : undefined,
  )
  t.equal(h.upstream.audit.records.filter((r) => ids.includes(r.request_id ?? '')).length, ids.length, 'each once')
  t.equal(await metricValue(h.app, 'gateway_audit_dropped_total'), 0)
})

t.test('the audit service not answering: records held, retried in order, none lost', async (t) => {
  const h = await harness(t)
  h.upstream.audit.failNext = 3
  const ids: string[] = []
  for (let i = 0; i < 5; i++) {
    const id = `held-${i}`
    ids.push(id)
    const customer = await accessToken(seedUser(h, { claims: { roles: ['customer'] } }))
    t.equal(
      (
        await h.app.inject({
          method: 'DELETE',
          url: '/api/tickets/t1',
          headers: { ...bearer(customer), 'x-request-id': id },
        })
      ).statusCode,
      403,
    )
  }
  await waitFor(async () => (h.upstream.audit.records.length >= ids.length ? true : undefined), 10_000)
  t.same(
    h.upstream.audit.records.map((r) => r.request_id),
    ids,
    'every record, in the order of the refusals',
  )
  t.ok((await metricValue(h.app, 'gateway_audit_handover_failures_total')) >= 3, 'the failed hand-overs are counted')
  // the stand-in keeps the records before it answers; the gauge moves when the gateway reads the answer
  await waitFor(async () => ((await metricValue(h.app, 'gateway_audit_pending')) === 0 ? true : undefined))
  t.pass('nothing left waiting')
})

t.test('a client that resets its connection right after a refused write still leaves a record', async (t) => {
  const h = await harness(t)
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (h.app.server.address() as { port: number }).port
  const ids: string[] = []
  await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      for (let i = 0; i < 5; i++) {
        const id = `reset-${c}-${i}`
        ids.push(id)
        const token = await accessToken(seedUser(h, { claims: { roles: ['customer'] } }))
        await new Promise<void>((resolve) => {
          const socket = tcpConnect(port, '127.0.0.1', () => {
            socket.write(
              `DELETE /api/tickets/t1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nx-request-id: ${id}\r\n\r\n`,
            )
            // gone before the gateway has answered (its token check is asynchronous)
            setImmediate(() => {
              socket.resetAndDestroy()
              resolve()
            })
          })
          socket.on('error', () => resolve())
        })
      }
    }),
  )
  await waitFor(async () =>
    ids.every((id) => h.upstream.audit.records.some((r) => r.request_id === id)) ? true : undefined,
  )
  for (const id of ids)
    t.equal(h.upstream.audit.records.filter((r) => r.request_id === id).length, 1, `${id}: one record`)
  t.notOk(
    h.upstream.requests.some((r) => r.includes(PRINCIPAL_HEADER)),
    'nothing was proxied',
  )
})

t.test('an authenticated write whose client leaves mid-body is never forwarded, and still recorded', async (t) => {
  const h = await harness(t)
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  const port = (h.app.server.address() as { port: number }).port
  const admin = await accessToken(seedUser(h, { claims: { roles: ['admin'] } }))
  const before = h.upstream.requests.length
  await new Promise<void>((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nx-request-id: half-body\r\n` +
          'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"title":',
      )
      setTimeout(() => {
        socket.resetAndDestroy()
        resolve()
      }, 50)
    })
  })
  const record = await waitFor(async () => h.upstream.audit.records.find((r) => r.request_id === 'half-body'))
  t.match(record.data, { action: 'tickets.create', success: false, principal_kind: 'admin' })
  // 400 when the gateway answered the unreadable body (onSend on the dead socket), 499 when the client left before
  t.ok([400, 499].includes(record.data.status_code), `status ${record.data.status_code}`)
  await new Promise((r) => setTimeout(r, 50))
  t.equal(h.upstream.audit.records.filter((r) => r.request_id === 'half-body').length, 1, 'one record')
  t.equal(h.upstream.requests.length, before, 'never forwarded')
})

t.test(
  'an encoded lone surrogate in a path: 400 PATH_INVALID in the fleet error body, not the router default',
  async (t) => {
    const h = await harness(t)
    const agent = await accessToken(seedUser(h))
    const res = await h.app.inject({
      method: 'PUT',
      url: '/api/macros/a%ED%A0%80',
      headers: { ...bearer(agent), 'x-request-id': 'bad-url-1' },
    })
    t.equal(res.statusCode, 400)
    t.same(res.json(), {
      error: 'bad_request',
      message: 'path is not in canonical form',
      code: 'PATH_INVALID',
      request_id: 'bad-url-1',
    })
    t.equal(res.headers['x-request-id'], 'bad-url-1')
  },
)
