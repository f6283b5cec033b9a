import { pipeline, Readable } from 'node:stream'
import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import { stringify } from 'csv-stringify'
import type { TicketsService } from '../context.ts'
import { listCustomFields } from '../db/custom-fields.repository.ts'
import { exportTicketIds, ticketsByIds } from '../db/ticket-query.ts'
import { csvHeader, csvRow, exportFileName } from '../domain/ticket-csv.ts'
import { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, ExportTicketsQuery } from '../schemas/tickets.schemas.ts'
import { ticketFiltersOf } from './ticket-filters.ts'

const tags = ['tickets']
/** rows read per query while the file streams */
const BATCH = 500

/**
 * `GET /api/tickets/export`: the list's filters and order as CSV, `limit` rows (default 1000, capped at 5000 like
 * the audit export). The ids are read in one statement, then the rows in batches as the stringifier drains, so the
 * response streams rather than being built whole. A cell that a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab, CR) gets a leading `'` (csv-stringify's `escape_formulas`): titles and custom values are anyone's text.
 */
export const ticketExportRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/tickets/export',
    {
      schema: {
        tags,
        querystring: ExportTicketsQuery,
        produces: ['text/csv'],
        response: { 200: { description: 'CSV with a header row', type: 'string' }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request)
      const { filters, sort } = await ticketFiltersOf(svc, scope, request.query)
      const limit = Math.min(request.query.limit ?? EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT)
      const ids = await exportTicketIds(svc.db, svc.dialect, scope, filters, sort, limit)
      // the active fields of the scope (of every scope an unscoped admin spans), one column per key
      const keys = [
        ...new Set((await listCustomFields(svc.db, scope, { resource: 'ticket', active: true })).map((f) => f.key)),
      ]
      async function* rows() {
        for (let i = 0; i < ids.length; i += BATCH) {
          for (const ticket of await ticketsByIds(svc.db, ids.slice(i, i + BATCH))) yield csvRow(ticket, keys)
        }
      }
      const csv = stringify({ header: true, columns: csvHeader(keys), escape_formulas: true })
      // a failed batch destroys the response stream (the client sees a cut-off body), and is logged here
      pipeline(Readable.from(rows()), csv, (err) => {
        if (err) request.log.error({ err }, 'ticket export failed while streaming')
      })
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(new Date())}"`)
        .send(csv)
    },
  )
}
