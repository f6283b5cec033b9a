import ipaddr from 'ipaddr.js'

/** How far a client address reaches; documentation ranges count as public (see `classifyIp`). */
export type NetworkLabel = 'loopback' | 'private' | 'public' | 'unknown'
/** Where a client address can be placed; `public_unknown` because the heuristic has no geo database. */
export type LocationLabel =
  | 'loopback'
  | 'private'
  | 'documentation'
  | 'shared_address_space'
  | 'public_unknown'
  | 'unknown'

/** Labels as the session view carries them; a provider may answer labels outside the heuristic's set. */
export interface IpLabels {
  network_label: string
  location_label: string
}

const cidrs = (list: string[]) => list.map((c) => ipaddr.parseCIDR(c))

const LOOPBACK = cidrs(['127.0.0.0/8', '::1/128'])
const RFC1918_AND_ULA = cidrs(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'])
const SHARED_ADDRESS_SPACE = cidrs(['100.64.0.0/10'])
const DOCUMENTATION = cidrs(['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'])

export const UNKNOWN_LABELS: IpLabels = Object.freeze({ network_label: 'unknown', location_label: 'unknown' })

function inAny(addr: ipaddr.IPv4 | ipaddr.IPv6, ranges: ReturnType<typeof cidrs>): boolean {
  // match() throws across address families, so compare kinds first.
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))
}

/** A client address as recorded, or undefined: brackets and zone ids are tolerated, legacy IPv4 forms are not. */
export function parseClientIp(raw: string | null | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!raw) return undefined
  let ip = raw.trim()
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1)
  // "127.1" and "0x7f.0.0.1" parse in ipaddr.js but no socket reports them; treat them as garbage.
  const valid = ipaddr.IPv4.isValidFourPartDecimal(ip) || ipaddr.IPv6.isValid(ip)
  if (!valid) return undefined
  // process() turns IPv4-mapped IPv6 (::ffff:10.0.0.1) into the IPv4 address it carries.
  return ipaddr.process(ip)
}

/** The local, offline classification every lookup falls back to. */
export function classifyIp(raw: string | null | undefined): IpLabels {
  const addr = parseClientIp(raw)
  if (!addr) return UNKNOWN_LABELS
  if (inAny(addr, LOOPBACK)) return { network_label: 'loopback', location_label: 'loopback' }
  if (inAny(addr, RFC1918_AND_ULA)) return { network_label: 'private', location_label: 'private' }
  if (inAny(addr, SHARED_ADDRESS_SPACE)) return { network_label: 'private', location_label: 'shared_address_space' }
  if (inAny(addr, DOCUMENTATION)) return { network_label: 'public', location_label: 'documentation' }
  return { network_label: 'public', location_label: 'public_unknown' }
}
