import { type LookupAddress, lookup as resolve } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent, buildConnector, type Dispatcher } from 'undici'

/**
 * The outbound address guard (server-side request forgery): an endpoint a tenant or workspace configured (governed
 * settings, not this service's environment) may reach public unicast addresses only — never this host, the cluster's
 * network, a cloud's metadata service. It is decided when connecting, on the address connected to: a name that
 * resolves to a public address when a change is reviewed and to 127.0.0.1 a moment later (DNS rebinding) is refused
 * at the connection that would reach 127.0.0.1. The operator's AI_OUTBOUND_ALLOWED_HOSTS allows some host names,
 * addresses or ranges all the same (a knowledge base inside the cluster).
 */

export const NOT_ALLOWED = 'endpoint address not allowed'

/** A connection the guard refused; the resolved `address` is for the operator's log only (it may be internal). */
export class AddressNotAllowedError extends Error {
  override name = 'AddressNotAllowedError'
  readonly code = 'ERR_ADDRESS_NOT_ALLOWED'
  readonly host: string
  readonly address: string
  constructor(host: string, address: string) {
    super(`${NOT_ALLOWED}: ${host}`)
    this.host = host
    this.address = address
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6
type Range = [Address, number]

/** IPv6's global unicast space (2000::/3): anything else unicast (IPv4-compatible ::a.b.c.d, say) is not public. */
const GLOBAL_UNICAST: Range = [ipaddr.IPv6.parse('2000::'), 3]

const unbracket = (host: string) => host.replace(/^\[(.*)\]$/, '$1')
/** A host name as compared: lower case, without the root's trailing dot. */
const hostName = (host: string) => unbracket(host).toLowerCase().replace(/\.$/, '')

/** An address, an IPv4-mapped IPv6 one as its IPv4 (`::ffff:127.0.0.1` is 127.0.0.1); undefined when not one. */
function parseAddress(ip: string): Address | undefined {
  const bare = unbracket(ip)
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined
}

/**
 * Public unicast: not loopback, private (RFC 1918, fc00::/7), link-local (169.254/16 with the metadata service,
 * fe80::/10), shared (100.64/10), unspecified, multicast, broadcast, reserved or documentation, nor an IPv6 form that
 * embeds an IPv4 address (mapped, NAT64, 6to4, Teredo). ipaddr.js keeps the list of special ranges.
 */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip)
  if (address?.range() !== 'unicast') return false
  return address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST)
}

/** The operator's exceptions (AI_OUTBOUND_ALLOWED_HOSTS): host names as written, addresses and CIDR ranges. */
export interface AllowList {
  names: ReadonlySet<string>
  ranges: readonly Range[]
}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i

/** An IPv4-mapped range (`::ffff:10.0.0.0/104`) as the IPv4 range it is, since addresses are compared so. */
function asRange([address, bits]: Range): Range {
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96)
    return [address.toIPv4Address(), bits - 96]
  return [address, bits]
}

/** Entries as AI_OUTBOUND_ALLOWED_HOSTS lists them (`127.0.0.1,10.0.0.0/8,kb.internal`); throws on one it cannot read. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const names = new Set<string>()
  const ranges: Range[] = []
  for (const raw of entries) {
    const entry = unbracket(raw.trim())
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`not a CIDR range: ${raw}`)
      ranges.push(asRange(ipaddr.parseCIDR(entry)))
    } else if (ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry)) {
      const address = ipaddr.parse(entry)
      ranges.push(asRange([address, address.kind() === 'ipv4' ? 32 : 128]))
    } else if (HOST_NAME.test(entry)) {
      names.add(hostName(entry))
    } else throw new Error(`not a host name, address or CIDR range: ${raw}`)
  }
  return { names, ranges }
}

/** May a governed endpoint connect to `ip`: public, or in one of the operator's ranges. */
export function addressAllowed(allow: AllowList, ip: string): boolean {
  if (isPublicAddress(ip)) return true
  const address = parseAddress(ip)
  return (
    address !== undefined && allow.ranges.some(([r, bits]) => r.kind() === address.kind() && address.match(r, bits))
  )
}

/** What the operator's log is told of a refusal: the host as configured and the address it would have reached. */
export interface Refusal {
  host: string
  address: string
}

/**
 * The dispatcher of a governed endpoint's calls (`fetch(url, { dispatcher })`): every new connection checks the
 * address it is about to reach — an address in the URL as it is, a host name on each address it resolves to (any one
 * not allowed refuses the connection). A host name the operator allowed connects unchecked. `onRefused` is told of
 * each refusal (the caller logs it: this module knows no scope).
 */
export function createGuardedDispatcher(allow: AllowList, onRefused: (refusal: Refusal) => void): Dispatcher {
  const refuse = (host: string, address: string) => {
    onRefused({ host, address })
    return new AddressNotAllowedError(host, address)
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0)
      const refused = addresses.find((a) => !addressAllowed(allow, a.address))
      if (refused || addresses.length === 0) return callback(refuse(hostname, refused?.address ?? ''), '', 0)
      // net asks for every address when it tries both families (autoSelectFamily), else for one
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
  const checked = buildConnector({ lookup })
  const trusted = buildConnector({})
  return new Agent({
    connect(opts, callback) {
      const host = hostName(opts.hostname)
      if (allow.names.has(host)) return trusted(opts, callback)
      // an address in the URL is connected to as it is: net asks no lookup for it
      if (isIP(host) && !addressAllowed(allow, host)) return callback(refuse(host, host), null)
      return checked(opts, callback)
    },
  })
}
