import { waitFor } from '@switchboard/testing'
import t from 'tap'
import WebSocket from 'ws'
import { agent, headersOf, hubFixture, service } from '../helpers/hub.ts'
import { connect, open } from '../helpers/socket.ts'

// Limits are the hub's own, whatever the storage: one mode is enough.
t.test('limits, close codes and frames the hub cannot take', async (t) => {
  const fx = await hubFixture(t, 'sqlite', {
    env: {
      HUB_MAX_FRAME_BYTES: '2048',
      HUB_MAX_FRAMES_PER_SECOND: '5',
      HUB_MAX_SOCKETS_PER_PRINCIPAL: '2',
      HUB_PING_INTERVAL_MS: '150',
    },
  })
  const url = fx.hub.url

  await t.test('an oversize frame closes the socket with 1009', async (t) => {
    const s = await open(t, url)
    s.send({ type: 'text-message', data: 'x'.repeat(3000) })
    t.equal((await s.closed).code, 1009)
  })

  await t.test('a flood gets an error frame, then 1008', async (t) => {
    const s = await open(t, url)
    for (let i = 0; i < 12; i++) s.send({ type: 'ping' })
    const err = await s.take((f) => f.type === 'error', 'error')
    t.equal(err.data.code, 'REALTIME_RATE_LIMITED')
    t.equal((await s.closed).code, 1008)
  })

  await t.test('malformed, unknown and invalid frames get error frames; the socket stays', async (t) => {
    const s = await open(t, url)
    const cases: Array<[string | Buffer, string, boolean?]> = [
      ['{"type": "text-mess', 'REALTIME_INVALID_FRAME'],
      ['[1, 2, 3]', 'REALTIME_INVALID_FRAME'],
      ['{"data": {}}', 'REALTIME_INVALID_FRAME'],
      [JSON.stringify({ type: 'teleport', data: {} }), 'REALTIME_UNKNOWN_FRAME'],
      [JSON.stringify({ type: 'typing', data: { state: 'maybe' } }), 'REALTIME_INVALID_FRAME'],
      [Buffer.from([1, 2, 3]), 'REALTIME_INVALID_FRAME', true],
    ]
    for (const [raw, code, binary] of cases) {
      s.sendRaw(raw, binary)
      const err = await s.take((f) => f.type === 'error', String(raw))
      t.equal(err.data.code, code, String(raw))
      await new Promise((r) => setTimeout(r, 210)) // stay within 5 frames a second
    }
    await s.sync()
    t.equal(s.ws.readyState, s.ws.OPEN)
  })

  await t.test('frames a socket may not send, or not yet', async (t) => {
    const monitor = await open(t, url, { principal: service() })
    monitor.send({ type: 'text-message', data: 'hello' })
    t.equal((await monitor.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_FRAME_NOT_ALLOWED')
    const visitor = await open(t, url)
    visitor.send({ type: 'join', data: {} })
    t.equal((await visitor.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_SESSION_REQUIRED')
    visitor.send({ type: 'webrtc-offer', session_id: 'nope', data: { sdp: 'v=0' } })
    t.equal((await visitor.take((f) => f.type === 'error', 'error')).data.code, 'REALTIME_NOT_JOINED')
  })

  await t.test('too many sockets of one principal: the next upgrade is refused', async (t) => {
    const p = agent('agent-busy')
    const one = await open(t, url, { principal: p })
    await open(t, url, { principal: p })
    const third = await connect(url, { principal: p })
    t.match(third, { status: 429, body: { code: 'REALTIME_TOO_MANY_SOCKETS' } })
    await open(t, url, { principal: agent('agent-other') })
    one.ws.close()
    await one.closed
    const again = await waitFor(async () => {
      const r = await connect(url, { principal: p })
      if ('status' in r) return undefined
      t.teardown(() => r.ws.terminate())
      return r
    })
    t.equal(again.ws.readyState, again.ws.OPEN, 'a freed place is taken again')
  })

  await t.test('a plain GET is told to upgrade; a bad principal header is refused', async (t) => {
    const plain = await fx.hub.app.inject({ method: 'GET', url: '/api/v1/ws', headers: await headersOf(agent()) })
    t.equal(plain.statusCode, 426)
    t.equal(plain.json().code, 'REALTIME_UPGRADE_REQUIRED')
    // a client that lingers after its refusal: the hub must still close (teardown)
    const forged = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/ws`, {
        headers: { 'x-switchboard-principal': 'forged' },
      })
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('open', () => resolve(101))
      ws.once('error', () => {})
    })
    t.equal(forged, 401)
  })

  await t.test('a socket that stops answering pings is dropped', async (t) => {
    const s = await open(t, url, { ws: { autoPong: false } })
    const { code } = await s.closed
    t.equal(code, 1006, 'terminated without a close frame')
  })
})
