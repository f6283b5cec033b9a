import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { bulkUpdate } from '../commands/bulk.commands.ts'
import type { TicketsService } from '../context.ts'
import { BulkBody, BulkResult } from '../schemas/ticket-views.schemas.ts'

const tags = ['tickets']

/** `POST /api/tickets/bulk`: 200 with `{updated, failed}` even when some tickets could not take the change. */
export const ticketBulkRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/api/tickets/bulk',
    { schema: { tags, body: BulkBody, response: { 200: BulkResult, ...errorResponses(400, 401) } } },
    async (request) => {
      const result = await bulkUpdate(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, after: result }
      return result
    },
  )
}
