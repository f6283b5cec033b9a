import type { ReadinessCheck } from '@switchboard/platform'
import { type Dispatcher, request } from 'undici'
import type { GatewayConfig } from './config.ts'
import { parseExposition, type Sample } from './readiness-exposition.ts'
import { figuresOf, type PreviousCount, type ReplicaFigures } from './readiness-figures.ts'

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

/** One replica as `GET /api/system/health` answers it: its `/ready`, and its `/metrics` reduced to figures. */
export interface ReplicaHealth {
  /** 1-based, in the config's order of the unit's URLs */
  replica: number
  ready: boolean
  metrics: ReplicaFigures | null
  /** why there are no figures: `timeout`, `unreachable`, `http <status>`, `unreadable`, `too large` */
  metrics_error: string | null
}

/** One unit's health as `GET /api/system/health` answers it: each replica's `/ready` and `/metrics` asked at once. */
export interface UnitHealth {
  unit: string
  status: 'ready' | 'unready'
  replicas: number
  replicas_ready: number
  instances: ReplicaHealth[]
}

/** a unit's exposition is some 20 KB; more than this is not one */
const MAX_EXPOSITION_BYTES = 1 << 20

class ScrapeError extends Error {}

const isTimeout = (err: unknown) => ['TimeoutError', 'AbortError'].includes((err as Error)?.name)

async function scrape(url: string, timeoutMs: number, dispatcher: Dispatcher): Promise<Sample[]> {
  let res: Dispatcher.ResponseData
  try {
    res = await request(`${url}/metrics`, { method: 'GET', signal: AbortSignal.timeout(timeoutMs), dispatcher })
  } catch (err) {
    throw new ScrapeError(isTimeout(err) ? 'timeout' : 'unreachable')
  }
  if (res.statusCode !== 200) {
    await res.body.dump()
    throw new ScrapeError(`http ${res.statusCode}`)
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of res.body) {
      size += chunk.length
      if (size > MAX_EXPOSITION_BYTES) {
        res.body.destroy()
        throw new ScrapeError('too large')
      }
      chunks.push(chunk)
    }
  } catch (err) {
    if (err instanceof ScrapeError) throw err
    throw new ScrapeError(isTimeout(err) ? 'timeout' : 'unreachable')
  }
  try {
    return parseExposition(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new ScrapeError('unreadable')
  }
}

/**
 * Every upstream unit's replicas asked for `/ready` and `/metrics` at once (each within `ready_timeout_ms`), in the
 * config's order. Keeps each replica's previous request counts (one entry per configured URL) for the rates.
 */
export function createUnitsHealth(
  config: Pick<GatewayConfig, 'upstreams' | 'ready_timeout_ms'>,
  dispatcher: Dispatcher,
  now: () => number = Date.now,
): () => Promise<UnitHealth[]> {
  const previous = new Map<string, PreviousCount>()
  const replica = async (unit: string, url: string, index: number): Promise<ReplicaHealth> => {
    const [isReady, scraped] = await Promise.all([
      ready(url, config.ready_timeout_ms, dispatcher),
      scrape(url, config.ready_timeout_ms, dispatcher).then(
        (samples) => ({ samples, error: null }),
        (err: Error) => ({ samples: null, error: err instanceof ScrapeError ? err.message : 'unreadable' }),
      ),
    ])
    let metrics: ReplicaFigures | null = null
    if (scraped.samples) {
      const at = now()
      const key = `${unit} ${url}`
      metrics = figuresOf(scraped.samples, at, previous.get(key))
      previous.set(key, { at, requests: metrics.http_requests_total, errors: metrics.http_5xx_total })
    }
    return { replica: index + 1, ready: isReady, metrics, metrics_error: scraped.error }
  }
  return () =>
    Promise.all(
      Object.entries(config.upstreams).map(async ([unit, urls]) => {
        const instances = await Promise.all(urls.map((u, i) => replica(unit, u, i)))
        const replicas_ready = instances.filter((r) => r.ready).length
        return {
          unit,
          status: replicas_ready > 0 ? ('ready' as const) : ('unready' as const),
          replicas: urls.length,
          replicas_ready,
          instances,
        }
      }),
    )
}
