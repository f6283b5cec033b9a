import { LRUCache } from 'lru-cache'
import { classifyIp, type IpLabels } from './heuristic.ts'
import { fetchProviderLabels, type IpIntelProviderConfig } from './http-provider.ts'

export { classifyIp, type IpLabels, type LocationLabel, type NetworkLabel, parseClientIp } from './heuristic.ts'
export { authValue, fetchProviderLabels, type IpIntelProviderConfig, readProviderAnswer } from './http-provider.ts'

export interface IpIntelConfig extends Partial<IpIntelProviderConfig> {
  enabled: boolean
  /** answers kept per process; identical addresses repeat across a user's sessions */
  cache_size?: number
  cache_ttl_seconds?: number
}

/** The session IP intelligence adapter: never throws, never fails a request (a failing provider: the heuristic). */
export interface IpIntel {
  lookup(ip: string): Promise<IpLabels>
  /** whether lookups may leave the process */
  readonly remote: boolean
}

interface Warner {
  warn(obj: object, msg: string): void
}

/** The heuristic alone: what runs when the provider is disabled, and in pure tests. */
export const heuristicIpIntel: IpIntel = Object.freeze({
  remote: false,
  lookup: async (ip: string) => classifyIp(ip),
})

/**
 * The configured adapter. Only public addresses are sent to the provider: loopback, private and
 * unparseable addresses have nothing to look up and would leak internal topology.
 */
export function createIpIntel(config: IpIntelConfig | undefined, logger?: Warner): IpIntel {
  if (!config?.enabled || !config.base_url) return heuristicIpIntel
  const provider: IpIntelProviderConfig = {
    base_url: config.base_url,
    api_key: config.api_key ?? '',
    auth_header: config.auth_header || 'Authorization',
    timeout_ms: config.timeout_ms ?? 1500,
  }
  // Only answers are cached: a failing provider is asked again next time, and failures stay cheap
  // because the timeout bounds them.
  const cache = new LRUCache<string, IpLabels>({
    max: config.cache_size ?? 1000,
    ttl: (config.cache_ttl_seconds ?? 600) * 1000,
  })
  const inflight = new Map<string, Promise<IpLabels>>()

  async function ask(ip: string, fallback: IpLabels): Promise<IpLabels> {
    try {
      const answer = await fetchProviderLabels(provider, ip)
      const labels = { ...fallback, ...answer }
      cache.set(ip, labels)
      return labels
    } catch (err) {
      logger?.warn({ err: (err as Error).message }, 'ip intelligence provider failed; heuristic used')
      return fallback
    }
  }

  return {
    remote: true,
    async lookup(ip) {
      const fallback = classifyIp(ip)
      if (fallback.network_label !== 'public') return fallback
      const key = ip.trim()
      const hit = cache.get(key)
      if (hit) return hit
      let pending = inflight.get(key)
      if (!pending) {
        pending = ask(key, fallback).finally(() => inflight.delete(key))
        inflight.set(key, pending)
      }
      return pending
    },
  }
}

/** Labels for many addresses at once, each distinct address looked up once. */
export async function lookupAll(intel: IpIntel, ips: Iterable<string>): Promise<Map<string, IpLabels>> {
  const distinct = [...new Set(ips)]
  const answers = await Promise.all(distinct.map((ip) => intel.lookup(ip)))
  return new Map(distinct.map((ip, i) => [ip, answers[i] as IpLabels]))
}
