// A small evaluator of Kubernetes NetworkPolicies (networking.k8s.io/v1) for the manifests test: which connections a
// set of policies admits between named peers. It follows the API's rules: a pod selected by a policy of a type is
// isolated for that direction and admits only what some such policy's rules allow; policies add up; a connection
// needs the source's egress and the destination's ingress; rules without `from`/`to` match every peer, without
// `ports` every port; podSelector alone = pods of the policy's namespace, namespaceSelector alone = every pod of the
// namespaces it selects, both = those pods in those namespaces; ipBlock = addresses (our pods get addresses in
// 10.0.0.0/8, so a rule for "the internet but private ranges" does not admit them). Named ports are not supported
// (the test asserts numbers). Pods outside the policies' namespace are never isolated by them.

export type Labels = Readonly<Record<string, string>>

export interface Peer {
  readonly name: string
  /** undefined: not a pod (an address outside the cluster) */
  readonly namespace?: string
  readonly namespaceLabels?: Labels
  readonly labels?: Labels
  readonly ip: string
  /** what it listens on: `8080`, `53/UDP` */
  readonly listens: readonly string[]
}

interface Selector {
  matchLabels?: Record<string, string>
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>
}
interface PolicyPeer {
  podSelector?: Selector
  namespaceSelector?: Selector
  ipBlock?: { cidr: string; except?: string[] }
}
interface PolicyPort {
  protocol?: string
  port?: number | string
  endPort?: number
}
interface Rule {
  from?: PolicyPeer[]
  to?: PolicyPeer[]
  ports?: PolicyPort[]
}
export interface NetworkPolicyDoc {
  metadata: { name: string }
  spec: { podSelector: Selector; policyTypes?: string[]; ingress?: Rule[]; egress?: Rule[] }
}

export function selects(selector: Selector | undefined, labels: Labels = {}): boolean {
  if (!selector) return true
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key)
    const ok =
      e.operator === 'In'
        ? has && (e.values ?? []).includes(labels[e.key]!)
        : e.operator === 'NotIn'
          ? !has || !(e.values ?? []).includes(labels[e.key]!)
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false
    if (!ok) return false
  }
  return true
}

const ipv4 = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0)
export function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string]
  const size = 2 ** (32 - Number(bits))
  return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(base) / size)
}

function peerMatches(p: PolicyPeer, peer: Peer, namespace: string): boolean {
  if (p.ipBlock) return inCidr(peer.ip, p.ipBlock.cidr) && !(p.ipBlock.except ?? []).some((c) => inCidr(peer.ip, c))
  if (peer.namespace === undefined) return false
  if (p.namespaceSelector) {
    return selects(p.namespaceSelector, peer.namespaceLabels) && selects(p.podSelector, peer.labels)
  }
  return peer.namespace === namespace && selects(p.podSelector, peer.labels)
}

function portMatches(ports: PolicyPort[] | undefined, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false
    if (p.port === undefined) return true
    if (typeof p.port !== 'number') throw new Error(`named port ${p.port}: not supported here`)
    return p.endPort === undefined ? p.port === port : port >= p.port && port <= p.endPort
  })
}

const typesOf = (p: NetworkPolicyDoc) => p.spec.policyTypes ?? (p.spec.egress ? ['Ingress', 'Egress'] : ['Ingress'])

/** Does `pod` admit the connection in this direction (`other` is the far end)? */
function admits(
  policies: readonly NetworkPolicyDoc[],
  namespace: string,
  pod: Peer,
  direction: 'Ingress' | 'Egress',
  other: Peer,
  port: number,
  protocol: string,
): boolean {
  if (pod.namespace !== namespace) return true
  const mine = policies.filter((p) => selects(p.spec.podSelector, pod.labels) && typesOf(p).includes(direction))
  if (mine.length === 0) return true
  return mine.some((p) =>
    (direction === 'Ingress' ? p.spec.ingress : p.spec.egress)?.some((r) => {
      const peers = direction === 'Ingress' ? r.from : r.to
      const peerOk = !peers || peers.length === 0 || peers.some((x) => peerMatches(x, other, namespace))
      return peerOk && portMatches(r.ports, port, protocol)
    }),
  )
}

/**
 * Every connection `source → destination:port[/UDP]` the policies (all of `namespace`) admit between the peers, to
 * a port the destination listens on. Connections between two peers outside the namespace are left out.
 */
export function admittedFlows(policies: readonly NetworkPolicyDoc[], namespace: string, peers: readonly Peer[]) {
  const flows: string[] = []
  for (const src of peers) {
    for (const dst of peers) {
      if (src === dst || (src.namespace !== namespace && dst.namespace !== namespace)) continue
      for (const listen of dst.listens) {
        const [port, protocol = 'TCP'] = listen.split('/') as [string, string?]
        const n = Number(port)
        if (
          admits(policies, namespace, src, 'Egress', dst, n, protocol) &&
          admits(policies, namespace, dst, 'Ingress', src, n, protocol)
        )
          flows.push(`${src.name} → ${dst.name}:${listen}`)
      }
    }
  }
  return flows.sort()
}
