import type { ReadinessCheck } from '@switchboard/platform'
import { type Dispatcher, request } from 'undici'
import type { GatewayConfig } from './config.ts'

async function ready(url: string, timeoutMs: number, dispatcher: Dispatcher): Promise<boolean> {
  try {
    const res = await request(`${url}/ready`, { method: 'GET', signal: AbortSignal.timeout(timeoutMs), dispatcher })
    await res.body.dump()
    return res.statusCode === 200
  } catch {
    return false
  }
}

/** One readiness check per upstream service: ready when at least one of its replicas says so. */
export function upstreamReady(config: GatewayConfig, dispatcher: Dispatcher): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = {}
  for (const [service, urls] of Object.entries(config.upstreams)) {
    checks[`upstream:${service}`] = async () =>
      (await Promise.all(urls.map((u) => ready(u, config.ready_timeout_ms, dispatcher)))).some(Boolean)
  }
  return checks
}
