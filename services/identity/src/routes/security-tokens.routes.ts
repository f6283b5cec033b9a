import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { pageOf } from '@switchboard/contracts'
import { scopeOf } from '@switchboard/platform'
import { listDenied } from '../db/denylist.repository.ts'
import { isUserVisible, usersInScope } from '../db/scoped-users.repository.ts'
import { DirectoryErrors } from '../directory-errors.ts'
import { denyToken } from '../domain/revocation.ts'
import { inspectOwnToken, TokenNotOursError } from '../domain/token-inspection.ts'
import { IdentityErrors } from '../errors.ts'
import { inTransaction } from '../events/publish.ts'
import {
  errorResponses,
  RevokedToken,
  RevokedTokensPage,
  RevokedTokensQuery,
  RevokeTokenBody,
} from '../schemas/security.schemas.ts'
import { auditAs, requireAccess } from './access.ts'

const tags = ['security']

/** The denylist: one JWT made invalid before its expiry, and the records listed (spec, Security surface). */
export const securityTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/security/tokens/revoke',
    {
      onRequest: auditAs('security.tokens_revoke'),
      preValidation: requireAccess('security.write'),
      schema: { tags, body: RevokeTokenBody, response: { 200: RevokedToken, ...errorResponses } },
    },
    async (request) => {
      const claims = await inspectOwnToken(app.identity.keys, request.body.token).catch((err) => {
        if (err instanceof TokenNotOursError) throw new DirectoryErrors.TokenNotOurs(err.message)
        throw err
      })
      request.audit.resource_id = claims.jti
      const { row, created } = await inTransaction(app, async (trx) => {
        // A token of a user outside the scope is as unknown as a missing user.
        if (!(await isUserVisible(trx, claims.user_id, scopeOf(request)))) throw new IdentityErrors.UserNotFound()
        return denyToken(
          { trx, outbox: app.outbox, from: request },
          {
            jti: claims.jti,
            user_id: claims.user_id,
            session_id: claims.session_id,
            token_use: claims.token_use,
            expires_at: new Date(claims.exp * 1000).toISOString(),
            revoked_by: request.principal.user_id,
            reason: request.body.reason ?? '',
          },
        )
      })
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
      schema: { tags, querystring: RevokedTokensQuery, response: { 200: RevokedTokensPage, ...errorResponses } },
    },
    async (request) => {
      const q = request.query
      const page = q.page ?? 1
      const pageSize = q.page_size ?? 20
      const { rows, total } = await listDenied(
        app.db,
        {
          jti: q.jti,
          user_id: q.user_id,
          session_id: q.session_id,
          token_use: q.token_use,
          active_at: q.active_only ? new Date().toISOString() : undefined,
          user_ids: await usersInScope(app.db, scopeOf(request)),
        },
        page,
        pageSize,
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
      return pageOf(data, total, page, pageSize)
    },
  )
}
