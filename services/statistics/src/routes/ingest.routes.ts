import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { ingestMetrics } from '../commands/ingest.commands.ts'
import type { StatisticsService } from '../context.ts'
import { IngestBody, IngestResult } from '../schemas/ingest.schemas.ts'

/** Client metrics (`POST /api/v1/metrics/ingest`): the gateway's `service` route class, service principals only. */
export const ingestRoutes: RouteModule<StatisticsService> = async (app, svc) => {
  app.post(
    '/api/v1/metrics/ingest',
    { schema: { body: IngestBody, response: { 200: IngestResult, ...errorResponses(400, 401, 403, 413) } } },
    async (request) => ingestMetrics(svc, callerOf(request), request.body),
  )
}
