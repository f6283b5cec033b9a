import { errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { type AuditFilters, exportAuditLogs, findAuditLog, listAuditLogs } from '../db/audit-logs.repository.ts'
import { auditCsv } from '../domain/csv.ts'
import { parseDateRange } from '../domain/date-range.ts'
import { diffSnapshots } from '../domain/diff.ts'
import { AuditErrors } from '../errors.ts'
import {
  AuditDiff,
  type AuditFilterQuery,
  AuditLog,
  AuditPage,
  AuditParams,
  ExportAuditQuery,
  ListAuditQuery,
} from '../schemas/audit.schemas.ts'

const tags = ['audit']

export const LIST_MAX_LIMIT = 200
export const EXPORT_DEFAULT_LIMIT = 1000
export const EXPORT_MAX_LIMIT = 5000

function filtersOf(q: AuditFilterQuery): AuditFilters {
  const parsed = parseDateRange(q.start_date, q.end_date)
  if (!parsed.ok) {
    throw parsed.reason === 'range'
      ? new AuditErrors.InvalidRange(parsed.message)
      : new AuditErrors.InvalidDate(parsed.message)
  }
  return {
    action: q.action,
    resource: q.resource,
    principal: q.principal,
    actor: q.actor,
    success: q.success === undefined ? undefined : q.success === 'true',
    range: parsed.range,
  }
}

/** `/api/audit/logs`: reads only, each bound to the caller's scope (an unscoped admin or service sees all). */
export const auditRoutes: RouteModule<AuditService> = async (app, svc) => {
  app.get(
    '/api/audit/logs',
    { schema: { tags, querystring: ListAuditQuery, response: { 200: AuditPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const q = request.query
      // `limit` is the page size clients of the earlier implementation send; page_size wins when both are given.
      const window = pageWindow({ page: q.page, page_size: q.page_size ?? Math.min(q.limit ?? 20, LIST_MAX_LIMIT) })
      const { rows, total } = await listAuditLogs(svc.db, scopeOf(request), filtersOf(q), window)
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/audit/logs/export',
    {
      schema: {
        tags,
        querystring: ExportAuditQuery,
        produces: ['text/csv'],
        response: { 200: { description: 'CSV with a header row', type: 'string' }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const limit = Math.min(request.query.limit ?? EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT)
      const rows = await exportAuditLogs(svc.db, scopeOf(request), filtersOf(request.query), limit)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-logs.csv"')
        .send(auditCsv(rows))
    },
  )

  app.get(
    '/api/audit/logs/:id',
    { schema: { tags, params: AuditParams, response: { 200: AuditLog, ...errorResponses(401, 404) } } },
    async (request) => {
      const record = await findAuditLog(svc.db, request.params.id, scopeOf(request))
      if (!record) throw new AuditErrors.NotFound(request.params.id)
      return record
    },
  )

  app.get(
    '/api/audit/logs/:id/diff',
    { schema: { tags, params: AuditParams, response: { 200: AuditDiff, ...errorResponses(401, 404) } } },
    async (request) => {
      const record = await findAuditLog(svc.db, request.params.id, scopeOf(request))
      if (!record) throw new AuditErrors.NotFound(request.params.id)
      return { audit: record, diff: diffSnapshots(record.before_json, record.after_json) }
    },
  )
}
