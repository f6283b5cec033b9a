import type { Dispatcher } from 'undici'
import { request } from 'undici'

export interface UpstreamPoolOptions {
  /** how long an ejected replica is left alone before its /ready is probed */
  coolDownMs: number
  /** the probe's own timeout */
  probeTimeoutMs: number
  dispatcher: Dispatcher
  onEject?(service: string, base: string): void
  onRestore?(service: string, base: string): void
}

interface Replica {
  base: string
  ejectedUntil: number
  /** consecutive failed probes: the cool-down doubles with each, up to 8 times */
  strikes: number
  probing: boolean
}

/**
 * Round-robin over a service's replicas with passive health: a replica that refused or reset a connection is
 * ejected for a cool-down, then probed on `/ready` until it answers 200, and only then picked again. With every
 * replica ejected, they are all tried anyway (an ejection must never turn into a self-inflicted outage).
 * Not a library: undici's BalancedPool has no ejection and no probe, and the retry rules live in the proxy.
 */
export function createUpstreamPool(upstreams: Record<string, string[]>, opts: UpstreamPoolOptions) {
  const services = new Map<string, { replicas: Replica[]; next: number }>()
  for (const [service, urls] of Object.entries(upstreams)) {
    services.set(service, {
      replicas: urls.map((base) => ({ base, ejectedUntil: 0, strikes: 0, probing: false })),
      next: 0,
    })
  }
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  function schedule(service: string, replica: Replica, delayMs: number) {
    if (closed) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      void probe(service, replica)
    }, delayMs)
    timer.unref()
    timers.add(timer)
  }

  async function probe(service: string, replica: Replica) {
    if (closed) return
    let ok = false
    try {
      const res = await request(`${replica.base}/ready`, {
        dispatcher: opts.dispatcher,
        signal: AbortSignal.timeout(opts.probeTimeoutMs),
      })
      await res.body.dump()
      ok = res.statusCode === 200
    } catch {
      ok = false
    }
    if (ok) {
      replica.ejectedUntil = 0
      replica.strikes = 0
      replica.probing = false
      opts.onRestore?.(service, replica.base)
      return
    }
    replica.strikes = Math.min(replica.strikes + 1, 3)
    const wait = opts.coolDownMs * 2 ** replica.strikes
    replica.ejectedUntil = Date.now() + wait
    schedule(service, replica, wait)
  }

  return {
    /** the next healthy replica of `service` other than `except`; undefined when it has none configured */
    pick(service: string, except?: string): string | undefined {
      const entry = services.get(service)
      if (!entry || entry.replicas.length === 0) return undefined
      const n = entry.replicas.length
      for (let k = 0; k < n; k++) {
        const r = entry.replicas[(entry.next + k) % n]!
        if (r.ejectedUntil === 0 && r.base !== except) {
          entry.next = (entry.next + k + 1) % n
          return r.base
        }
      }
      // none healthy (or only `except`): plain round-robin, never nothing
      const r = entry.replicas[entry.next % n]!
      entry.next = (entry.next + 1) % n
      return r.base === except && n > 1 ? entry.replicas[entry.next % n]!.base : r.base
    },
    /** `base` failed at the connection level: eject it and start probing it after the cool-down */
    failed(service: string, base: string) {
      const r = services.get(service)?.replicas.find((x) => x.base === base)
      if (r?.ejectedUntil !== 0) return
      r.ejectedUntil = Date.now() + opts.coolDownMs
      opts.onEject?.(service, base)
      if (!r.probing) {
        r.probing = true
        schedule(service, r, opts.coolDownMs)
      }
    },
    /** replicas currently ejected, by service (for the metrics gauge and tests) */
    ejected(): Record<string, string[]> {
      const out: Record<string, string[]> = {}
      for (const [service, e] of services)
        out[service] = e.replicas.filter((r) => r.ejectedUntil !== 0).map((r) => r.base)
      return out
    },
    close() {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
    },
  }
}

export type UpstreamPool = ReturnType<typeof createUpstreamPool>

// Connection-level failures where the request never left: any method may go to another replica.
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
])
// The connection broke under the request: it may have been written, so only a safe method is sent again.
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function codeOf(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string } }
  return e.cause?.code ?? e.code ?? ''
}

/** What a proxy failure says about the replica and the request. */
export function classifyFailure(error: unknown, method: string): { eject: boolean; retry: boolean } {
  const code = codeOf(error)
  if (NOT_CONNECTED.has(code)) return { eject: true, retry: true }
  if (BROKEN.has(code)) return { eject: true, retry: SAFE_METHODS.has(method) }
  return { eject: false, retry: false }
}
