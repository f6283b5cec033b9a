import { createHash } from 'node:crypto'
import ipaddr from 'ipaddr.js'

export const MAX_DEVICE_ID_LENGTH = 128

/** Where a request comes from, as the auth session records it. */
export interface ClientInfo {
  user_agent: string
  client_ip: string
  device_fingerprint: string
}

/**
 * X-Device-ID (trimmed, at most 128 chars) when the client sends one, else the first 16 bytes of
 * SHA-256(user_agent + "\n" + client_ip) as 32 hex chars (docs/api.md §2).
 */
export function deviceFingerprint(deviceId: string | undefined, userAgent: string, clientIp: string): string {
  const given = (deviceId ?? '').trim().slice(0, MAX_DEVICE_ID_LENGTH)
  if (given) return given
  return createHash('sha256').update(`${userAgent}\n${clientIp}`).digest('hex').slice(0, 32)
}

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number]

export function parseCidrs(list: readonly string[]): Cidr[] {
  return list.map((c) =>
    c.includes('/') ? ipaddr.parseCIDR(c) : ipaddr.parseCIDR(`${c}/${c.includes(':') ? 128 : 32}`),
  )
}

function normalise(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(ip)) return undefined
  const a = ipaddr.parse(ip)
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a
}

export function trusted(ip: string, cidrs: readonly Cidr[]): boolean {
  const a = normalise(ip)
  if (!a) return false
  return cidrs.some(([range, bits]) => range.kind() === a.kind() && a.match(range, bits))
}

/**
 * The client's address: X-Forwarded-For is believed only from a trusted peer (the gateway), read from the
 * right, skipping trusted hops, so a client cannot forge it by sending its own header through the gateway.
 */
export function clientIp(peer: string, forwardedFor: string | undefined, cidrs: readonly Cidr[]): string {
  const direct = normalise(peer)?.toString() ?? peer
  if (!forwardedFor || !trusted(peer, cidrs)) return direct
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string
    const addr = normalise(hop)
    if (!addr) return direct
    if (i === 0 || !trusted(hop, cidrs)) return addr.toString()
  }
  return direct
}
