import type { IpLabels } from './heuristic.ts'

/** `security.session_ip_intelligence` (`SESSION_IP_INTELLIGENCE_*`, services/identity/README.md). */
export interface IpIntelProviderConfig {
  base_url: string
  api_key: string
  auth_header: string
  timeout_ms: number
}

/** An answer bigger than this is not a label pair; reading stops there. */
const MAX_ANSWER_BYTES = 16 * 1024
const LABEL = /^[A-Za-z0-9_.:-]{1,64}$/

function label(value: unknown): string | undefined {
  return typeof value === 'string' && LABEL.test(value.trim()) ? value.trim() : undefined
}

/** Labels at the top level or under `data`; partial answers keep the other label undefined. */
export function readProviderAnswer(body: unknown): Partial<IpLabels> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const top = body as Record<string, unknown>
  const nested = top.data !== null && typeof top.data === 'object' ? (top.data as Record<string, unknown>) : {}
  const network = label(top.network_label) ?? label(nested.network_label)
  const location = label(top.location_label) ?? label(nested.location_label)
  if (network === undefined && location === undefined) return undefined
  const out: Partial<IpLabels> = {}
  if (network !== undefined) out.network_label = network
  if (location !== undefined) out.location_label = location
  return out
}

/** The header value for the key: a bare key in Authorization is sent as a Bearer credential. */
export function authValue(header: string, key: string): string {
  return header.toLowerCase() === 'authorization' && !/\s/.test(key.trim()) ? `Bearer ${key.trim()}` : key
}

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0')
  if (declared > MAX_ANSWER_BYTES) throw new Error('answer too large')
  const text = await res.text()
  if (text.length > MAX_ANSWER_BYTES) throw new Error('answer too large')
  return text
}

/**
 * One lookup against the configured provider. Throws on any failure (status, timeout, not JSON, no
 * labels); the caller turns every throw into the heuristic answer.
 */
export async function fetchProviderLabels(cfg: IpIntelProviderConfig, ip: string): Promise<Partial<IpLabels>> {
  const url = cfg.base_url.replaceAll('{ip}', encodeURIComponent(ip))
  const headers: Record<string, string> = { accept: 'application/json' }
  if (cfg.api_key)
    headers[cfg.auth_header || 'Authorization'] = authValue(cfg.auth_header || 'Authorization', cfg.api_key)
  const signal = AbortSignal.timeout(Math.max(1, cfg.timeout_ms))
  const res = await fetch(url, { method: 'GET', headers, signal, redirect: 'error' })
  if (!res.ok) {
    await res.body?.cancel().catch(() => {})
    throw new Error(`ip intelligence provider answered ${res.status}`)
  }
  const answer = readProviderAnswer(JSON.parse(await readCapped(res)))
  if (!answer) throw new Error('ip intelligence provider answered no labels')
  return answer
}
