// The namespace's NetworkPolicies (k8s/base/networkpolicy*.yaml) evaluated (harness/network-policy.ts): the flows
// they admit between the units, the engines, DNS, Prometheus and the outside are exactly the ones the units need —
// built from what each service's code calls (its config.ts's UPSTREAM_*), which its Deployment must be wired to.
import { GATEWAY, SERVICES, upstreamEnvOf } from '@switchboard/cli'
import t from 'tap'
import { baseDocs, callsOf, container, units } from './harness/k8s-manifests.ts'
import { admittedFlows, type NetworkPolicyDoc, type Peer } from './harness/network-policy.ts'

t.test('k8s: the NetworkPolicies admit exactly the flows the units need', async (t) => {
  const all = baseDocs()
  const calls = new Map<string, string[]>([[GATEWAY.name, SERVICES.map((s) => s.name)]])
  for (const s of SERVICES) calls.set(s.name, callsOf(s.name))
  // the Deployments are wired to what the code calls, no more: the policies below follow the same list
  for (const { name } of units) {
    const dep = all.find((d) => d.kind === 'Deployment' && d.metadata.name === name)
    const wired = container(dep)
      .env.filter((e: any) => e.name.startsWith('UPSTREAM_') && e.name !== 'UPSTREAM_TIMEOUT_MS')
      .map((e: any) => SERVICES.find((s) => upstreamEnvOf(s.name) === e.name)?.name ?? e.name)
    t.same(wired.sort(), [...calls.get(name)!].sort(), `${name}: UPSTREAM_* of its Deployment = what its code calls`)
  }
  t.ok(calls.get('realtime-voice')!.includes('conversations'), 'the hub → conversations, as the code says')

  const ns = 'switchboard'
  const pod = (name: string, labels: Record<string, string>, listens: string[], ip: string): Peer => ({
    name,
    namespace: ns,
    namespaceLabels: { 'kubernetes.io/metadata.name': ns },
    labels,
    listens,
    ip,
  })
  const elsewhere = (name: string, namespace: string, labels: Record<string, string>, listens: string[]): Peer => ({
    name,
    namespace,
    namespaceLabels: { 'kubernetes.io/metadata.name': namespace },
    labels,
    listens,
    ip: '10.9.0.1',
  })
  const peers: Peer[] = [
    ...units.map((u, i) => {
      const labels = all.find((d) => d.kind === 'Deployment' && d.metadata.name === u.name).spec.template.metadata
        .labels
      return pod(u.name, labels, [String(u.port)], `10.1.0.${i + 1}`)
    }),
    pod('postgres', { 'app.kubernetes.io/name': 'postgres' }, ['5432'], '10.1.1.1'),
    pod('redis', { 'app.kubernetes.io/name': 'redis' }, ['6379'], '10.1.1.2'),
    pod('nats', { 'app.kubernetes.io/name': 'nats' }, ['4222'], '10.1.1.3'),
    pod('debug-pod', { app: 'debug' }, ['8000'], '10.1.1.4'),
    elsewhere('kube-dns', 'kube-system', { 'k8s-app': 'kube-dns' }, ['53/UDP', '53']),
    elsewhere('prometheus', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' }, ['9090']),
    elsewhere('other-pod', 'monitoring', { 'app.kubernetes.io/name': 'grafana' }, ['3000']),
    elsewhere('ingress-controller', 'ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' }, ['443']),
    { name: 'internet', ip: '203.0.113.7', listens: ['443', '80'] },
    { name: 'private-host', ip: '192.168.4.2', listens: ['443'] },
    { name: 'cloud-metadata', ip: '169.254.169.254', listens: ['80', '443'] },
  ]
  const policies = all.filter((d) => d.kind === 'NetworkPolicy') as NetworkPolicyDoc[]
  for (const p of policies)
    for (const r of [...(p.spec.ingress ?? []), ...(p.spec.egress ?? [])])
      for (const port of r.ports ?? []) t.type(port.port, 'number', `${p.metadata.name}: numeric ports`)

  const engines = ['postgres:5432', 'redis:6379', 'nats:4222']
  const outside = [
    'kube-dns',
    'prometheus',
    'other-pod',
    'ingress-controller',
    'internet',
    'private-host',
    'cloud-metadata',
  ]
  const expected: string[] = []
  for (const u of units) {
    const to = (x: string) => expected.push(`${u.name} → ${x}`)
    for (const e of engines) to(e)
    to('kube-dns:53/UDP')
    to('kube-dns:53')
    for (const callee of calls.get(u.name)!) to(`${callee}:${SERVICES.find((s) => s.name === callee)!.port}`)
    expected.push(`prometheus → ${u.name}:${u.port}`)
  }
  for (const o of outside.filter((o) => o !== 'prometheus')) expected.push(`${o} → gateway:8080`)
  expected.push('ai-orchestrator → internet:443')
  for (const a of engines) {
    const name = a.split(':')[0]!
    for (const b of engines) if (b !== a) expected.push(`${name} → ${b}`)
    expected.push(`${name} → kube-dns:53/UDP`, `${name} → kube-dns:53`)
  }
  t.same(admittedFlows(policies, ns, peers), expected.sort(), 'admitted flows = the expected graph')
})
