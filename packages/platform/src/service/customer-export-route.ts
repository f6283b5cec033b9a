import { Type } from '@sinclair/typebox'
import {
  CUSTOMER_EXPORT_PATH,
  CustomerExportPart,
  CustomerExportQuery,
  holdsErasurePermission,
} from '@switchboard/contracts'
import { CommonErrors } from '../http/errors.ts'
import { errorResponses } from '../http/responses.ts'
import { type Scope, scopeOf } from '../scope.ts'
import type { RouteModule } from './context.ts'

/**
 * A unit's share of a person's export (`GET /internal/customers/:id/export?user_id=`), asked by the gateway's
 * `GET /api/customers/:id/export` as the administrator who asked, in their scope (identity, asked first, has already
 * answered 404 for a customer outside it). `shareOf` reads the unit's records of the person — the user id and the
 * customer id both name them — in that scope. Administrators only (`customers.erase`).
 */
export function customerExportRoute<S>(
  shareOf: (svc: S, ids: string[], scope: Scope) => Promise<CustomerExportPart>,
): RouteModule<S> {
  return async (app, svc) => {
    app.get(
      CUSTOMER_EXPORT_PATH,
      {
        schema: {
          hide: true,
          params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) }),
          querystring: CustomerExportQuery,
          response: { 200: CustomerExportPart, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        if (!holdsErasurePermission(request.principal.permissions)) {
          throw new CommonErrors.Forbidden('permission customers.erase is required')
        }
        return shareOf(svc, [request.query.user_id, request.params.id], scopeOf(request))
      },
    )
  }
}
