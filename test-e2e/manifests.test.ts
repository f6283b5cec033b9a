// Structural checks of deploy/ and k8s/ (no Docker engine or cluster here): every file parses, every unit has a
// Deployment + Service with the probes and secret references production needs, the alert rules name metrics
// the code registers, and compose wires the gateway to every service.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GATEWAY, REPO_ROOT, SERVICES, upstreamEnvOf } from '@switchboard/cli'
import t from 'tap'
import { parseAllDocuments, parse as parseYaml } from 'yaml'

const k8s = join(REPO_ROOT, 'k8s')
const deploy = join(REPO_ROOT, 'deploy')
// every built unit of the registry (packages/contracts/src/units.ts): a new service fails here until deployed
const units = [GATEWAY, ...SERVICES]

function docs(file: string): any[] {
  const parsed = parseAllDocuments(readFileSync(file, 'utf8'))
  for (const d of parsed) if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`)
  return parsed.map((d) => d.toJS()).filter(Boolean)
}

function container(dep: any) {
  return dep.spec.template.spec.containers[0]
}

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
})
