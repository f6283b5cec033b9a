import { type Opened, wsConnect, wsOpened } from '@switchboard/testing'
import { fmt, percentile } from './lib.ts'

/** Echo round trips on `sockets` connections at once, each sending its next message when the last came back. */
async function roundTrips(sockets: Opened[], perSocket: number) {
  const samples: number[] = []
  const started = performance.now()
  await Promise.all(
    sockets.map(async (s) => {
      for (let i = 0; i < perSocket; i++) {
        const t0 = performance.now()
        s.ws.send(`m${i}`)
        await s.next()
        samples.push(performance.now() - t0)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  return { per_s: samples.length / seconds, p50: percentile(samples, 50), p99: percentile(samples, 99) }
}

/**
 * WebSocket through the gateway against the same stand-in service reached directly: time to open (the
 * gateway authenticates and opens the upstream half first), then echo round trips on 50 sockets.
 */
export async function benchWebsocket(gateway: string, echoUrl: string, token: string) {
  const protocols = ['switchboard.v1', `bearer.${token}`]
  const opens: number[] = []
  const viaGateway: Opened[] = []
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    viaGateway.push(wsOpened(await wsConnect(gateway, '/api/v1/ws', { protocols })))
    opens.push(performance.now() - t0)
  }
  const direct: Opened[] = []
  const directOpens: number[] = []
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    direct.push(wsOpened(await wsConnect(echoUrl, '/api/v1/ws', { protocols: ['switchboard.v1'] })))
    directOpens.push(performance.now() - t0)
  }
  await roundTrips(direct, 50) // warm-up
  await roundTrips(viaGateway, 50)
  const d = await roundTrips(direct, 200)
  const g = await roundTrips(viaGateway, 200)
  for (const s of [...direct, ...viaGateway]) s.ws.close()
  const result = {
    open_ms: {
      gateway_p50: percentile(opens, 50),
      gateway_p99: percentile(opens, 99),
      direct_p50: percentile(directOpens, 50),
    },
    direct: d,
    gateway: g,
    ratio: g.per_s / d.per_s,
  }
  console.log(
    `websocket: open through the gateway p50 ${fmt(result.open_ms.gateway_p50)} ms, p99 ${fmt(result.open_ms.gateway_p99)} ms (direct p50 ${fmt(result.open_ms.direct_p50)} ms); ` +
      `echo on 50 sockets: gateway ${fmt(g.per_s, 0)} msg/s p50 ${fmt(g.p50, 2)} ms p99 ${fmt(g.p99, 2)} ms, ` +
      `direct ${fmt(d.per_s, 0)} msg/s p50 ${fmt(d.p50, 2)} ms p99 ${fmt(d.p99, 2)} ms → ${fmt(result.ratio * 100)}%`,
  )
  return result
}
