import { callerOf, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { denyTokenCommand, ownTokenClaims } from '../commands/token-denylist.commands.ts'
import type { IdentityService } from '../context.ts'
import { listDenied } from '../db/denylist.repository.ts'
import { usersInScope } from '../db/scoped-users.repository.ts'
import { RevokedToken, RevokedTokensPage, RevokedTokensQuery, RevokeTokenBody } from '../schemas/security.schemas.ts'
import { auditAs, managementErrors, requireAccess } from './access.ts'

const tags = ['security']

/** The denylist: one JWT made invalid before its expiry, and the records listed (services/identity/README.md). */
export const securityTokenRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.post(
    '/api/security/tokens/revoke',
    {
      onRequest: auditAs('security.tokens_revoke'),
      preValidation: requireAccess('security.write'),
      schema: { tags, body: RevokeTokenBody, response: { 200: RevokedToken, ...managementErrors } },
    },
    async (request) => {
      const claims = await ownTokenClaims(svc, request.body.token)
      // Named before the change, so a refusal's audit record says which token it was about.
      request.audit.resource_id = claims.jti
      const { row, created } = await denyTokenCommand(svc, callerOf(request), claims, request.body.reason)
      const record = {
        jti: row.jti,
        user_id: row.user_id,
        session_id: row.session_id,
        token_use: row.token_use,
        expires_at: row.expires_at,
        revoked_at: row.revoked_at,
      }
      request.audit.before = created ? null : record
      request.audit.after = record
      return record
    },
  )

  app.get(
    '/api/security/tokens/revoked',
    {
      preValidation: requireAccess('security.read'),
      schema: { tags, querystring: RevokedTokensQuery, response: { 200: RevokedTokensPage, ...managementErrors } },
    },
    async (request) => {
      const q = request.query
      const window = pageWindow(q)
      const { rows, total } = await listDenied(
        svc.db,
        {
          jti: q.jti,
          user_id: q.user_id,
          session_id: q.session_id,
          token_use: q.token_use,
          active_at: q.active_only ? new Date().toISOString() : undefined,
          user_ids: await usersInScope(svc.db, scopeOf(request)),
        },
        window,
      )
      const data = rows.map((r) => ({
        jti: r.jti,
        user_id: r.user_id,
        session_id: r.session_id,
        token_use: r.token_use,
        expires_at: r.expires_at,
        revoked_at: r.revoked_at,
        revoked_by: r.revoked_by,
        reason: r.reason,
      }))
      return pageOf(data, total, window)
    },
  )
}
