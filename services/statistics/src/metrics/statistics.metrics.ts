import { Counter, Gauge, type Registry } from 'prom-client'
import type { ProjectionLag } from '../commands/lag.commands.ts'
import { CLIENT_METRICS, type ClientMetricName } from '../domain/client-metrics.ts'

/** The labels a client sample is recorded with: who sent it, for which tenant (README "Metrics ingest"). */
export type ClientLabels = 'source' | 'tenant'

export interface StatisticsMetrics {
  client: Record<ClientMetricName, Counter<ClientLabels> | Gauge<ClientLabels>>
  /** samples of an ingest batch not recorded, by reason (`unknown_name`) */
  ingestDropped: Counter<'reason'>
  /** samples recorded, by source */
  ingestAccepted: Counter<'source'>
  /** per projection, read from the database and the streams when scraped */
  projectionLag: Gauge<'projection'>
}

/**
 * The service's own metrics, on its registry (its `/metrics`), made once per app. `lags` measures the projections'
 * lag when `/metrics` is scraped; a failed measurement leaves the last values (and is logged by `onLagError`).
 */
export function createStatisticsMetrics(
  registry: Registry,
  lags: () => Promise<ProjectionLag[]>,
  onLagError: (err: unknown) => void,
): StatisticsMetrics {
  const client = Object.fromEntries(
    Object.entries(CLIENT_METRICS).map(([name, def]) => {
      const opts = { name, help: def.help, labelNames: ['source', 'tenant'] as const, registers: [registry] }
      return [name, def.kind === 'gauge' ? new Gauge(opts) : new Counter(opts)]
    }),
  ) as StatisticsMetrics['client']
  return {
    client,
    ingestDropped: new Counter({
      name: 'statistics_ingest_dropped_total',
      help: 'client metric samples not recorded by POST /api/v1/metrics/ingest, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    ingestAccepted: new Counter({
      name: 'statistics_ingest_accepted_total',
      help: 'client metric samples recorded by POST /api/v1/metrics/ingest, by source',
      labelNames: ['source'] as const,
      registers: [registry],
    }),
    projectionLag: new Gauge({
      name: 'stats_projection_lag_seconds',
      help: 'age of the oldest event a projection has not applied yet (0: it applied its stream to the end)',
      labelNames: ['projection'] as const,
      registers: [registry],
      async collect() {
        try {
          for (const l of await lags()) this.set({ projection: l.projection }, l.lag_seconds)
        } catch (err) {
          onLagError(err)
        }
      },
    }),
  }
}
