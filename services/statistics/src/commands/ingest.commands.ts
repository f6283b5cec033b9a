import { type Caller, CommonErrors } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'
import { isClientMetric, sampleValue } from '../domain/client-metrics.ts'
import type { IngestBody, IngestResult } from '../schemas/ingest.schemas.ts'

/**
 * Records a client's batch of metric samples on this service's `/metrics`: names on the
 * allow-list move their counter (or set their gauge) labelled with the source and tenant; any other name is
 * dropped, counted in `statistics_ingest_dropped_total{reason="unknown_name"}` and named in the answer. Service
 * principals only (the gateway lets no other kind reach the path; this holds for direct calls too). A scoped
 * caller records for its own tenant only.
 */
export function ingestMetrics(svc: StatisticsService, caller: Caller, body: IngestBody): IngestResult {
  if (caller.actor.kind !== 'service') {
    throw new CommonErrors.Forbidden('metrics ingest is for service principals only')
  }
  const own = caller.scope.tenant_id
  if (own && body.tenant !== undefined && body.tenant !== own) {
    throw new CommonErrors.Forbidden(`this caller records metrics of tenant ${own} only`)
  }
  const labels = { source: body.source, tenant: own || body.tenant || '' }
  let accepted = 0
  const dropped = new Set<string>()
  let droppedCount = 0
  for (const sample of body.metrics) {
    if (!isClientMetric(sample.name)) {
      droppedCount++
      dropped.add(sample.name)
      continue
    }
    const metric = svc.statisticsMetrics.client[sample.name]
    const value = sampleValue(sample.name, sample.value)
    if ('set' in metric) metric.set(labels, value)
    else metric.inc(labels, value)
    accepted++
  }
  if (accepted) svc.statisticsMetrics.ingestAccepted.inc({ source: body.source }, accepted)
  if (droppedCount) svc.statisticsMetrics.ingestDropped.inc({ reason: 'unknown_name' }, droppedCount)
  return { success: true, accepted, dropped: droppedCount, dropped_names: [...dropped].sort() }
}
