// Structural checks of deploy/ and k8s/ (no Docker engine or cluster here): every file parses and validates against
// the Kubernetes schemas (offline, harness/k8s-schema.ts), every unit has a Deployment + Service with the probes and
// secret references production needs, an HPA, a PDB, a NetworkPolicy, resources and a locked-down securityContext
// (what the policies admit: network-policies.test.ts); the alert rules name metrics the code registers; compose wires
// each unit to the services it calls; the image carries the console and the widget.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { REPO_ROOT, SERVICES, upstreamEnvOf } from '@switchboard/cli'
import t from 'tap'
import { parseAllDocuments, parse as parseYaml } from 'yaml'
import { baseDocs, bytes, callsOf, container, deploy, docs, k8s, overlay, units } from './harness/k8s-manifests.ts'
import { schemaProblems } from './harness/k8s-schema.ts'

t.test('k8s base: a Deployment and a Service per unit, probes, secrets from files, HPA for the gateway', async (t) => {
  const all = readdirSync(join(k8s, 'base'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => docs(join(k8s, 'base', f)).map((d) => ({ ...d, file: f })))
  const kustomization = all.find((d) => d.kind === 'Kustomization')
  for (const { name: unit, port } of units) {
    const dep = all.find((d) => d.kind === 'Deployment' && d.metadata.name === unit)
    const svc = all.find((d) => d.kind === 'Service' && d.metadata.name === unit)
    t.ok(dep, `${unit}: Deployment`)
    t.ok(svc, `${unit}: Service`)
    t.ok(kustomization.resources.includes(dep.file), `${unit}: listed in kustomization.yaml`)
    const c = container(dep)
    t.same(c.ports, [{ name: 'http', containerPort: port }], `${unit}: port ${port}`)
    t.equal(c.env.find((e: any) => e.name === 'SWITCHBOARD_UNIT').value, unit)
    t.equal(c.env.find((e: any) => e.name === 'PORT').value, String(port))
    t.match(c.livenessProbe, { httpGet: { path: '/health' }, timeoutSeconds: 5 }, `${unit}: liveness /health 5 s`)
    t.match(c.readinessProbe, { httpGet: { path: '/ready' }, timeoutSeconds: 10 }, `${unit}: readiness /ready 10 s`)
    t.equal(c.env.find((e: any) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.name, 'switchboard-secrets')
    for (const name of ['JWT_SECRET_FILE', 'INTERNAL_SECRET_FILE']) {
      const path = c.env.find((e: any) => e.name === name)?.value
      t.ok(path?.startsWith('/run/secrets/switchboard/'), `${unit}: ${name} from the mounted secret`)
    }
    t.notOk(
      c.env.some((e: any) => /SECRET$|PASSWORD$/.test(e.name) && 'value' in e),
      `${unit}: no secret value inline`,
    )
    t.same(svc.spec.selector, dep.spec.selector.matchLabels, `${unit}: Service selects the Deployment's pods`)
    t.equal(dep.spec.template.metadata.annotations['prometheus.io/port'], String(port))
  }
  const gateway = container(all.find((d) => d.kind === 'Deployment' && d.metadata.name === 'gateway'))
  for (const s of SERVICES) {
    const upstream = gateway.env.find((e: any) => e.name === upstreamEnvOf(s.name))
    t.equal(upstream?.value, `http://${s.name}:${s.port}`, `gateway → ${s.name}`)
  }
  const hpas = all.filter((d) => d.kind === 'HorizontalPodAutoscaler')
  t.ok(
    hpas.some((h) => h.spec.scaleTargetRef.name === 'gateway'),
    'the gateway has an HPA',
  )
  for (const hpa of hpas) {
    const target = all.find((d) => d.kind === 'Deployment' && d.metadata.name === hpa.spec.scaleTargetRef.name)
    t.ok(target, `HPA ${hpa.metadata.name} scales a Deployment of the base`)
    t.notOk(target?.spec.replicas, `${hpa.metadata.name}: the HPA owns its replicas`)
  }
  for (const { name } of units) {
    const pdb = all.find((d) => d.kind === 'PodDisruptionBudget' && d.metadata.name === name)
    t.same(pdb?.spec.selector.matchLabels, { 'app.kubernetes.io/name': name }, `${name}: PodDisruptionBudget`)
  }
  t.ok(all.some((d) => d.kind === 'ConfigMap' && d.metadata.name === 'switchboard-config'))
})

t.test('k8s overlays build with kustomize and pin a release tag', async (t) => {
  let kubectl = true
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' })
  } catch {
    kubectl = false
  }
  for (const overlay of ['staging', 'production']) {
    const k = parseYaml(readFileSync(join(k8s, 'overlays', overlay, 'kustomization.yaml'), 'utf8'))
    t.ok(k.resources.includes('../../base'), `${overlay}: on the base`)
    t.match(k.images[0].newTag, /^v\d+\.\d+\.\d+$/, `${overlay}: image tag v<major>.<minor>.<patch>`)
    if (!kubectl) continue
    const built = parseAllDocuments(
      execFileSync('kubectl', ['kustomize', join(k8s, 'overlays', overlay)], { encoding: 'utf8' }),
    )
      .map((d) => d.toJS())
      .filter(Boolean)
    const deployments = built.filter((d: any) => d.kind === 'Deployment')
    t.equal(deployments.length, units.length, `${overlay}: every unit deployed`)
    for (const d of deployments)
      t.match(container(d).image, new RegExp(`:${k.images[0].newTag}$`), `${overlay}: ${d.metadata.name} tag`)
    t.ok(
      built.every((d: any) => d.kind === 'Namespace' || d.metadata.namespace === k.namespace),
      `${overlay}: one namespace`,
    )
  }
  if (!kubectl) t.comment('kubectl not found: overlays parsed but not built')
})

t.test('alerts parse and use metric names the code registers', async (t) => {
  const rules = parseYaml(readFileSync(join(deploy, 'prometheus', 'alerts.yaml'), 'utf8'))
  const alerts = rules.groups.flatMap((g: any) => g.rules)
  const names = alerts.map((a: any) => a.alert)
  for (const required of [
    'EventBusHandlerFailures',
    'EventBusDeadLetters',
    'HighRateLimitDrops',
    'HighErrorRate',
    'HighLatencyP99',
  ]) {
    t.ok(names.includes(required), required)
  }
  const sources = [
    'packages/platform/src/http/metrics.ts',
    'packages/events/src/metrics.ts',
    'gateway/src/metrics.ts',
    'services/statistics/src/metrics/statistics.metrics.ts',
    'services/ai-orchestrator/src/metrics/ai.metrics.ts',
  ]
    .map((f) => readFileSync(join(REPO_ROOT, f), 'utf8'))
    .join('\n')
  for (const a of alerts) {
    t.ok(a.expr && a.labels?.severity && a.annotations?.summary, `${a.alert}: expr, severity, summary`)
    for (const metric of String(a.expr).match(/\b[a-z_]+_(?:total|seconds|bucket|count)\b/g) ?? []) {
      const base = metric.replace(/_(bucket|count)$/, '')
      // nodejs_* come from prom-client's default metrics, which every registry collects.
      if (base.startsWith('nodejs_')) continue
      t.ok(sources.includes(`'${base}'`), `${a.alert}: ${metric} is registered in code`)
    }
  }
})

t.test('compose: engines, one container per unit, the gateway wired to each service', async (t) => {
  const compose = parseYaml(readFileSync(join(deploy, 'compose.yaml'), 'utf8'), { merge: true })
  for (const engine of ['postgres', 'redis', 'nats']) t.ok(compose.services[engine], engine)
  t.ok(compose.services.nats.command.includes('-js'), 'NATS with JetStream')
  for (const { name: unit, port } of units) {
    const env = compose.services[unit]?.environment
    t.equal(env?.SWITCHBOARD_UNIT, unit, `${unit}: container`)
    t.equal(env?.PORT, String(port))
  }
  for (const s of SERVICES) {
    t.equal(compose.services.gateway.environment[upstreamEnvOf(s.name)], `http://${s.name}:${s.port}`)
  }
  // each service reaches the services its code calls (callsOf: the UPSTREAM_* its config.ts reads)
  for (const s of SERVICES) {
    const env = compose.services[s.name].environment
    const wired = Object.keys(env).filter((k) => k.startsWith('UPSTREAM_') && k !== 'UPSTREAM_TIMEOUT_MS')
    t.same(wired.sort(), callsOf(s.name).map(upstreamEnvOf).sort(), `compose: ${s.name}'s upstreams`)
  }
  const dockerfile = readFileSync(join(deploy, 'Dockerfile'), 'utf8')
  t.match(dockerfile, /^FROM node:24-slim/m)
  t.match(dockerfile, /pnpm install --frozen-lockfile --prod/)
  const entry = readFileSync(join(deploy, 'entrypoint.sh'), 'utf8')
  t.match(entry, /exec node gateway\/src\/main\.ts/, 'entrypoint runs the gateway')
  t.match(entry, /exec node "services\/\$unit\/src\/main\.ts"/, 'entrypoint runs any services/<unit>')
  for (const s of SERVICES) {
    t.equal(s.dir, `services/${s.name}`, `${s.name}: where the entrypoint looks`)
    t.ok(existsSync(join(REPO_ROOT, s.dir, 'src/main.ts')), `${s.name}: src/main.ts`)
  }
  const prometheus = parseYaml(readFileSync(join(deploy, 'prometheus', 'prometheus.yml'), 'utf8'))
  const targets = prometheus.scrape_configs.flatMap((c: any) => c.static_configs.flatMap((s: any) => s.targets))
  for (const { name, port } of units) t.ok(targets.includes(`${name}:${port}`), `prometheus scrapes ${name}:${port}`)
  // in Kubernetes: the pods of the namespace, by the annotations every unit's pod carries, under a job the alerts see
  const k8sScrape = parseYaml(readFileSync(join(deploy, 'prometheus', 'kubernetes.yml'), 'utf8')).scrape_configs[0]
  t.match(k8sScrape.job_name, /^switchboard/, 'kubernetes: job switchboard* (SwitchboardUnitDown matches it)')
  t.same(k8sScrape.kubernetes_sd_configs, [{ role: 'pod', namespaces: { names: ['switchboard'] } }])
  const annotations = k8sScrape.relabel_configs.flatMap((r: any) => r.source_labels)
  for (const a of ['scrape', 'port', 'path'])
    t.ok(annotations.includes(`__meta_kubernetes_pod_annotation_prometheus_io_${a}`), `kubernetes: prometheus.io/${a}`)
})

t.test('k8s: every object validates against the Kubernetes schemas (offline, unknown fields refused)', async (t) => {
  const sets: Array<[string, any[] | undefined]> = [
    [
      'base',
      baseDocs()
        .map(({ file: _, ...d }) => d)
        .filter((d) => d.kind !== 'Kustomization'),
    ],
    ['staging', overlay('staging')],
    ['production', overlay('production')],
  ]
  for (const [name, set] of sets) {
    if (!set) {
      t.comment(`kubectl not found: ${name} not built`)
      continue
    }
    for (const d of set) t.same(schemaProblems(d), [], `${name}: ${d.kind} ${d.metadata.name}`)
  }
  // the check itself refuses what the API would: a misspelt field and a wrong type
  const dep = structuredClone(baseDocs().find((d) => d.kind === 'Deployment'))
  delete dep.file
  dep.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem = true
  dep.spec.replicas = 'two'
  t.same(
    schemaProblems(dep).sort(),
    [
      '/spec/replicas: type {"type":"integer"}',
      '/spec/template/spec/containers/0/securityContext/readOnlyRootFileSystem: not a field of the schema',
    ],
    'a misspelt field and a wrong type are refused',
  )
})

t.test('k8s: every unit has an HPA, a PDB, a NetworkPolicy, resources and a locked-down securityContext', async (t) => {
  const all = baseDocs()
  const of = (kind: string, name: string) => all.find((d) => d.kind === kind && d.metadata.name === name)
  const kustomization = all.find((d) => d.kind === 'Kustomization')
  for (const d of all)
    if (d.kind !== 'Kustomization') t.ok(kustomization.resources.includes(d.file), `${d.file} listed`)
  for (const { name: unit } of units) {
    const dep = of('Deployment', unit)
    const pod = dep.spec.template
    const hpa = of('HorizontalPodAutoscaler', unit)
    t.match(hpa?.spec, { scaleTargetRef: { kind: 'Deployment', name: unit } }, `${unit}: HPA`)
    t.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas > hpa.spec.minReplicas, `${unit}: HPA range from 2`)
    t.notOk('replicas' in dep.spec, `${unit}: replicas left to the HPA`)
    t.same(of('PodDisruptionBudget', unit)?.spec.selector, dep.spec.selector, `${unit}: PDB on its pods`)
    const np = of('NetworkPolicy', unit)
    t.same(np?.spec.podSelector, { matchLabels: { 'app.kubernetes.io/name': unit } }, `${unit}: its NetworkPolicy`)
    t.same(np.spec.policyTypes, ['Ingress', 'Egress'], `${unit}: the policy covers both directions`)

    const podSc = pod.spec.securityContext
    t.notOk(pod.spec.hostNetwork || pod.spec.hostPID || pod.spec.hostIPC, `${unit}: no host namespaces`)
    t.equal(pod.spec.automountServiceAccountToken, false, `${unit}: no API token mounted (it never calls the API)`)
    const volumes = new Map<string, any>(pod.spec.volumes.map((v: any) => [v.name, v]))
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      const sc = c.securityContext ?? {}
      const eff = (k: string) => sc[k] ?? podSc?.[k]
      t.equal(eff('runAsNonRoot'), true, `${unit}/${c.name}: runAsNonRoot`)
      t.not(eff('runAsUser'), 0, `${unit}/${c.name}: not uid 0`)
      t.equal(eff('seccompProfile')?.type, 'RuntimeDefault', `${unit}/${c.name}: seccomp RuntimeDefault`)
      t.equal(sc.readOnlyRootFilesystem, true, `${unit}/${c.name}: read-only root filesystem`)
      t.equal(sc.allowPrivilegeEscalation, false, `${unit}/${c.name}: no privilege escalation`)
      t.same(sc.capabilities, { drop: ['ALL'] }, `${unit}/${c.name}: every capability dropped, none added`)
      t.notOk(sc.privileged, `${unit}/${c.name}: not privileged`)
      const tmp = c.volumeMounts.find((m: any) => m.mountPath === '/tmp')
      t.ok(volumes.get(tmp?.name)?.emptyDir, `${unit}/${c.name}: /tmp is an emptyDir (the root is read-only)`)
      const { requests, limits } = c.resources
      t.ok(requests?.cpu && requests?.memory && limits?.memory, `${unit}/${c.name}: requests and a memory limit`)
      t.ok(bytes(requests.memory) <= bytes(limits.memory), `${unit}/${c.name}: request within the limit`)
    }
  }
  // the overlays' patches keep every HPA's range sound and every pod's lock-down
  for (const name of ['staging', 'production']) {
    const built = overlay(name)
    if (!built) continue
    for (const h of built.filter((d) => d.kind === 'HorizontalPodAutoscaler'))
      t.ok(h.spec.minReplicas <= h.spec.maxReplicas, `${name}: ${h.metadata.name} HPA range`)
    t.equal(built.filter((d) => d.kind === 'HorizontalPodAutoscaler').length, units.length, `${name}: an HPA per unit`)
    for (const d of built.filter((d) => d.kind === 'Deployment')) {
      t.notOk('replicas' in d.spec, `${name}: ${d.metadata.name} replicas left to its HPA`)
      t.match(container(d).securityContext, { readOnlyRootFilesystem: true }, `${name}: ${d.metadata.name}`)
    }
  }
})

t.test(
  'image: every workspace manifest installed, the console and the widget built and where the gateway looks',
  async (t) => {
    const dockerfile = readFileSync(join(deploy, 'Dockerfile'), 'utf8')
    const [deps, apps, final] = dockerfile.split(/^FROM /m).slice(1) as [string, string, string]
    // a workspace package whose manifest the deps stage lacks fails `pnpm install --frozen-lockfile` in the image
    const workspace = parseYaml(readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8')).packages as string[]
    const members = workspace.flatMap((glob) =>
      glob.endsWith('/*')
        ? readdirSync(join(REPO_ROOT, glob.slice(0, -2))).map((n) => `${glob.slice(0, -2)}/${n}`)
        : [glob],
    )
    for (const dir of members.filter((d) => existsSync(join(REPO_ROOT, d, 'package.json'))))
      t.ok(deps.includes(`COPY ${dir}/package.json ${dir}/`), `deps stage: ${dir}/package.json`)
    t.match(apps, /turbo run build --filter=@switchboard\/console --filter=@switchboard\/widget/, 'both apps built')
    // where the gateway serves them from when CONSOLE_DIR / WIDGET_DIR are not set (none of the manifests sets them)
    const config = readFileSync(join(REPO_ROOT, 'gateway/src/config.ts'), 'utf8')
    for (const [name, env] of [
      ['CONSOLE', 'CONSOLE_DIR'],
      ['WIDGET', 'WIDGET_DIR'],
    ] as const) {
      const rel = new RegExp(`DEFAULT_${name}_DIR = fileURLToPath\\(new URL\\('([^']+)'`).exec(config)?.[1]
      const dir = relative(REPO_ROOT, resolve(REPO_ROOT, 'gateway/src', rel ?? '?'))
      t.match(apps, new RegExp(`test -f ${dir}/`), `${dir}: checked in the build stage`)
      t.match(
        final,
        new RegExp(`^WORKDIR /app$[\\s\\S]*^COPY --from=console /app/${dir} ${dir}$`, 'm'),
        `${dir} in /app`,
      )
      const set = [...readdirSync(join(k8s, 'base')), 'compose.yaml'].some((f) =>
        readFileSync(f === 'compose.yaml' ? join(deploy, f) : join(k8s, 'base', f), 'utf8').includes(env),
      )
      t.notOk(set, `${env} left to the gateway's default`)
    }
    // runAsUser 1000 of the pods is the image's `node` user (uid 1000 in the node images)
    t.match(final, /^USER node$/m, 'the image runs as node')
  },
)
