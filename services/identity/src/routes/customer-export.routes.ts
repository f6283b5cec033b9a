import { Type } from '@sinclair/typebox'
import {
  CUSTOMER_EXPORT_PATH,
  CustomerExportPart,
  CustomerExportQuery,
  holdsErasurePermission,
} from '@switchboard/contracts'
import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { customerExport } from '../db/customer-export.repository.ts'
import { findCustomerInScope } from '../db/customers.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { CustomerIdParams } from '../schemas/customers.schemas.ts'

/**
 * identity's share of a person's export, asked by the gateway's `GET /api/customers/:id/export` as the
 * administrator who asked (README "Erasure and export"): the customer of the caller's scope, else 404 like a missing
 * one. `user_id` is not needed here (identity finds it) but every unit's export route takes the same query.
 */
export const customerExportRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.get(
    CUSTOMER_EXPORT_PATH,
    {
      schema: {
        hide: true,
        params: CustomerIdParams,
        querystring: Type.Partial(CustomerExportQuery),
        response: { 200: CustomerExportPart, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (!holdsErasurePermission(request.principal.permissions)) {
        throw new IdentityErrors.PermissionMissing('customers.erase')
      }
      const customer = await findCustomerInScope(svc.db, request.params.id, scopeOf(request))
      if (!customer) throw new IdentityErrors.CustomerNotFound()
      return customerExport(svc.db, customer)
    },
  )
}
