import { Type } from '@sinclair/typebox'
import {
  CUSTOMER_EXPORT_PATH,
  CustomerExportPart,
  CustomerExportQuery,
  holdsErasurePermission,
} from '@switchboard/contracts'
import { CommonErrors, errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { customerExport } from '../db/customer-export.repository.ts'

/**
 * conversations' share of a person's export, asked by the gateway's `GET /api/customers/:id/export` as the
 * administrator who asked, in their scope (identity has already answered 404 for a customer outside it).
 */
export const customerExportRoutes: RouteModule<ConversationsService> = async (app, svc) => {
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
      return customerExport(svc.db, [request.query.user_id, request.params.id], scopeOf(request))
    },
  )
}
