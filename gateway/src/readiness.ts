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

/** One unit's health as `GET /api/system/health` answers it: each replica's `/ready` asked at once. */
export interface UnitHealth {
  unit: string
  status: 'ready' | 'unready'
  replicas: number
  replicas_ready: number
}

/** Every upstream unit's replicas asked for `/ready` (each within `ready_timeout_ms`), in the config's order. */
export async function unitsHealth(
  config: Pick<GatewayConfig, 'upstreams' | 'ready_timeout_ms'>,
  dispatcher: Dispatcher,
): Promise<UnitHealth[]> {
  return Promise.all(
    Object.entries(config.upstreams).map(async ([unit, urls]) => {
      const answers = await Promise.all(urls.map((u) => ready(u, config.ready_timeout_ms, dispatcher)))
      const replicas_ready = answers.filter(Boolean).length
      return {
        unit,
        status: replicas_ready > 0 ? ('ready' as const) : ('unready' as const),
        replicas: urls.length,
        replicas_ready,
      }
    }),
  )
}
