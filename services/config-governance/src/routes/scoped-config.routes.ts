import { callerOf, errorResponses, optionalBody, type RouteModule } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { putConfig, rollbackConfig } from '../commands/config.commands.ts'
import { approveChange, verifyChange } from '../commands/review.commands.ts'
import { resourceIdOf, SCOPE_KINDS, type ScopeAccess, type ScopeKind, scopeKeyOf } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import { ConfigErrors } from '../errors.ts'
import { listHistory, readConfig, readHistoryEntry } from '../queries/config.queries.ts'
import {
  ApproveBody,
  ApproveResponse,
  AuditIdParams,
  ConfigView,
  HistoryEntry,
  HistoryList,
  HistoryQuery,
  PutConfigBody,
  RollbackBody,
  RollbackQuery,
  VerifyBody,
  VerifyResponse,
  WriteResponse,
} from '../schemas/governance.schemas.ts'
import { changeControlOf, sectionsOf } from './change-control.ts'
import { registerPendingRoutes } from './pending.routes.ts'

const tags = ['scoped-config']
/**
 * `/api/security/config/{tenant|workspace}`: a scope's overrides and their governance (README "Governance").
 * Two literal route sets, one per scope kind; reads need security.read, writes security.write (the gateway checks,
 * nothing here trusts a missing scope); the tenant's writes also need a token bound to no workspace (403
 * TENANT_ADMIN_REQUIRED, README "Who may change which scope"). Every write is audited as
 * `scoped_config.{kind}.{update|rollback|approve|verify|propose|reject|withdraw}` with before/after, secrets redacted.
 */
export const scopedConfigRoutes: RouteModule<ConfigGovernanceService> = async (app, svc) => {
  for (const kind of SCOPE_KINDS) registerKind(app, svc, kind)
}

function registerKind(
  app: Parameters<RouteModule<ConfigGovernanceService>>[0],
  svc: ConfigGovernanceService,
  kind: ScopeKind,
) {
  const base = `/api/security/config/${kind}`
  /**
   * A write's audit names, and who may write this scope (scopeKeyOf's 'write'): checked before the body is, so a
   * token bound to one workspace gets its 403 TENANT_ADMIN_REQUIRED on the tenant routes whatever it sent (audited).
   */
  const audited = (verb: string) => async (request: FastifyRequest) => {
    request.audit.action = `scoped_config.${kind}.${verb}`
    request.audit.resource_type = 'scoped_config'
    const caller = callerOf(request)
    request.audit.resource_id = resourceIdOf(scopeKeyOf(kind, caller))
    scopeKeyOf(kind, caller, 'write')
  }
  const scoped = (request: FastifyRequest, access: ScopeAccess = 'read') => {
    const caller = callerOf(request)
    const key = scopeKeyOf(kind, caller, access)
    request.audit.resource_id = resourceIdOf(key)
    return { caller, key }
  }

  registerPendingRoutes(app, svc, kind, audited, scoped)

  app.get(
    base,
    { schema: { tags, response: { 200: ConfigView, ...errorResponses(400, 401, 403) } } },
    async (request) => readConfig(svc, scoped(request).key),
  )

  app.put(
    base,
    {
      onRequest: audited('update'),
      schema: { tags, body: PutConfigBody, response: { 200: WriteResponse, ...errorResponses(400, 401, 403) } },
    },
    async (request) => {
      const { caller, key } = scoped(request, 'write')
      const cc = changeControlOf(request, request.body)
      const result = await putConfig(svc, caller, key, cc, sectionsOf(request.body))
      request.audit.before = result.before
      request.audit.after = result.after
      return result.response
    },
  )

  app.get(
    `${base}/history`,
    { schema: { tags, querystring: HistoryQuery, response: { 200: HistoryList, ...errorResponses(400, 401, 403) } } },
    async (request) => listHistory(svc, scoped(request).key, request.query),
  )

  app.get(
    `${base}/history/:audit_id`,
    {
      schema: { tags, params: AuditIdParams, response: { 200: HistoryEntry, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => readHistoryEntry(svc, scoped(request).key, request.params.audit_id),
  )

  app.post(
    `${base}/approve`,
    {
      onRequest: audited('approve'),
      schema: { tags, body: ApproveBody, response: { 200: ApproveResponse, ...errorResponses(400, 401, 403) } },
    },
    async (request) => {
      const { caller, key } = scoped(request, 'write')
      const result = await approveChange(svc, caller, key, changeControlOf(request, request.body), request.body)
      request.audit.before = result.before
      request.audit.after = result.after
      return result.response
    },
  )

  app.post(
    `${base}/rollback/:audit_id`,
    {
      onRequest: audited('rollback'),
      preValidation: optionalBody,
      schema: {
        tags,
        params: AuditIdParams,
        querystring: RollbackQuery,
        body: RollbackBody,
        response: { 200: WriteResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { caller, key } = scoped(request, 'write')
      if (request.query.confirm !== true && request.body.confirm !== true) {
        throw new ConfigErrors.RollbackConfirmationRequired()
      }
      const cc = changeControlOf(request, request.body)
      const restore = request.body.restore ?? 'after'
      const result = await rollbackConfig(svc, caller, key, cc, request.params.audit_id, restore)
      request.audit.before = result.before
      request.audit.after = result.after
      return result.response
    },
  )

  app.post(
    `${base}/verify/:audit_id`,
    {
      onRequest: audited('verify'),
      schema: {
        tags,
        params: AuditIdParams,
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { caller, key } = scoped(request, 'write')
      const cc = changeControlOf(request, request.body)
      const result = await verifyChange(svc, caller, key, cc, request.params.audit_id, request.body)
      request.audit.before = result.before
      request.audit.after = result.after
      return result.response
    },
  )
}
