// The operator's view: the Grafana dashboard (deploy/grafana/switchboard.json) queries only metrics the units register,
// and covers the signals an operator watches; the runbook (docs/runbook.md) has a section for every alert of
// deploy/prometheus/alerts.yaml, and the CLI commands it tells people to run exist.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '@switchboard/cli'
import { createEventBusMetrics } from '@switchboard/events'
import { createMetrics } from '@switchboard/platform'
import t from 'tap'
import { parse as parseYaml } from 'yaml'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'test') return []
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : []
  })
}

/**
 * Every metric name the units register: the platform's registry as a unit builds it (prom-client's default metrics
 * included) with the event bus's counters, plus the `name: '…'` of every prom-client metric in the sources of the
 * gateway, the packages and the services.
 */
async function registeredMetrics(): Promise<Set<string>> {
  const { registry } = createMetrics('dashboard-test')
  createEventBusMetrics(registry)
  const names = new Set((await registry.getMetricsAsJSON()).map((m) => m.name))
  const dirs = [
    join(REPO_ROOT, 'gateway', 'src'),
    ...['packages', 'services'].flatMap((d) =>
      readdirSync(join(REPO_ROOT, d)).map((name) => join(REPO_ROOT, d, name, 'src')),
    ),
  ]
  for (const file of dirs.flatMap(sources)) {
    const text = readFileSync(file, 'utf8')
    if (!text.includes("from 'prom-client'")) continue
    for (const m of text.matchAll(/\bname: '([a-z_:][a-z0-9_:]*)'/g)) names.add(m[1]!)
  }
  // statistics' client metrics: registered from its allow-list (CLIENT_METRICS), one metric per key
  const client = readFileSync(join(REPO_ROOT, 'services/statistics/src/domain/client-metrics.ts'), 'utf8')
  for (const m of client.matchAll(/^ {2}([a-z_]+): \{ kind:/gm)) names.add(m[1]!)
  return names
}

const PROMQL_WORDS = new Set(
  'sum avg min max count rate irate increase delta histogram_quantile by without on ignoring group_left group_right bool and or unless topk bottomk abs clamp_min clamp_max label_values offset'.split(
    ' ',
  ),
)

/** The metric names of a PromQL expression: identifiers left once strings, matchers, ranges and label lists are gone. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\$\w+/g, '')
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w))
}

const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/grafana/switchboard.json'), 'utf8'))
const panels: any[] = dashboard.panels.flatMap((p: any) => [p, ...(p.panels ?? [])])
const exprs: string[] = panels.flatMap((p) => (p.targets ?? []).map((x: any) => x.expr))

t.test('the dashboard queries only metrics the code registers', async (t) => {
  const registered = await registeredMetrics()
  t.ok(exprs.length >= 20, `${exprs.length} queries`)
  t.same(metricsOf('sum by (service, le) (rate(a_total{x="y"}[5m])) / on (i) b_seconds_bucket'), [
    'a_total',
    'b_seconds_bucket',
  ])
  for (const expr of exprs) {
    const metrics = metricsOf(expr)
    t.ok(metrics.length > 0, `names a metric: ${expr}`)
    for (const m of metrics) {
      const base = m.replace(/_(bucket|count|sum)$/, '')
      t.ok(registered.has(m) || registered.has(base), `${m} is registered (${expr.slice(0, 60)}…)`)
    }
  }
  // a name nobody registers is caught
  t.notOk(registered.has('eventbus_published_totals'), 'the check can fail')
})

t.test('the dashboard covers what an operator watches, on the chosen data source', async (t) => {
  const used = new Set(exprs.flatMap(metricsOf).map((m) => m.replace(/_(bucket|count|sum)$/, '')))
  for (const m of [
    'http_request_duration_seconds', // request rate, errors, latency per unit
    'errors_total',
    'eventbus_published_total',
    'eventbus_failed_total',
    'eventbus_dead_letters_total',
    'stats_projection_lag_seconds',
    'gateway_websocket_connections',
    'ai_circuit_breaker_state',
    'gateway_upstream_ejected',
    'conversations_waiting_sessions', // the waiting queue
    'realtime_hub_sockets', // the hub's own sockets by kind
  ])
    t.ok(used.has(m), m)
  for (const p of panels.filter((p) => p.type !== 'row')) {
    t.ok(p.title, `panel ${p.id} has a title`)
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template
    if (p.targets?.length) t.equal(p.datasource?.uid, '${datasource}', `${p.title}: the dashboard's data source`)
  }
  t.same(new Set(panels.map((p) => p.id)).size, panels.length, 'panel ids unique')
})

t.test('the runbook has a section for every alert, and its CLI commands exist', async (t) => {
  const rules = parseYaml(readFileSync(join(REPO_ROOT, 'deploy/prometheus/alerts.yaml'), 'utf8'))
  const alerts: string[] = rules.groups.flatMap((g: any) => g.rules.map((r: any) => r.alert))
  const runbook = readFileSync(join(REPO_ROOT, 'docs/runbook.md'), 'utf8')
  const sections = runbook.split(/^## /m).slice(1)
  for (const alert of alerts) {
    const section = sections.find((s) => s.startsWith(`${alert}\n`))
    t.ok(section, `${alert}: a section`)
    for (const part of ['**Means.**', '**Confirm.**', '**Do.**']) t.ok(section?.includes(part), `${alert}: ${part}`)
  }
  const cli = sources(join(REPO_ROOT, 'packages/cli/src'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
  const commands = new Set([...cli.matchAll(/\.command\('([a-z-]+)/g)].map((m) => m[1]))
  const mentioned = [...runbook.matchAll(/(?:switchboard|bin\.ts) ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)]
  t.ok(mentioned.length >= 5, 'the runbook names CLI commands')
  for (const [all, cmd, sub] of mentioned) {
    t.ok(commands.has(cmd!), `${all}: command ${cmd}`)
    if (sub && ['dlq', 'stats'].includes(cmd!)) t.ok(commands.has(sub), `${all}: subcommand ${sub}`)
  }
  for (const topic of [
    'dlq list',
    'dlq replay',
    'stats rebuild',
    'jwt-previous-secrets',
    'CONFIG_ENCRYPTION_KEYS_PREVIOUS',
  ])
    t.ok(runbook.includes(topic), `the runbook covers ${topic}`)
})
