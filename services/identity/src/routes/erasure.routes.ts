import { callerOf, type RouteModule, scopeOf } from '@switchboard/platform'
import { eraseCustomer, erasureReport } from '../commands/erasure.commands.ts'
import type { IdentityService } from '../context.ts'
import { findErasureOfCustomer } from '../db/erasures.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { CustomerIdParams } from '../schemas/customers.schemas.ts'
import { type ErasureSchema as Erasure, ErasureSchema } from '../schemas/erasure.schemas.ts'
import { auditAs, managementErrors, requireAccess } from './access.ts'

const tags = ['customers']

/**
 * The right to erasure (README "Erasure"): administrators only (`customers.erase`, which only `*` holds). The audit
 * record names the customer by id and the erasure, never the person's data.
 */
export const erasureRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const erase = requireAccess('customers.erase')

  app.post(
    '/api/customers/:id/erasure',
    {
      onRequest: auditAs('customers.erase'),
      preValidation: erase,
      schema: {
        tags,
        params: CustomerIdParams,
        response: { 200: ErasureSchema, 202: ErasureSchema, ...managementErrors },
      },
    },
    async (request, reply) => {
      request.audit.resource_id = request.params.id
      const { erasure, created } = await eraseCustomer(svc, callerOf(request), request.params.id)
      request.audit.before = { customer_id: erasure.customer_id }
      request.audit.after = { erasure_id: erasure.id, repeated: !created }
      const report: Erasure = await erasureReport(svc.db, erasure)
      return reply.code(created ? 202 : 200).send(report)
    },
  )

  app.get(
    '/api/customers/:id/erasure',
    {
      preValidation: erase,
      schema: { tags, params: CustomerIdParams, response: { 200: ErasureSchema, ...managementErrors } },
    },
    async (request) => {
      const erasure = await findErasureOfCustomer(svc.db, request.params.id, scopeOf(request))
      if (!erasure) throw new IdentityErrors.CustomerNotFound()
      return erasureReport(svc.db, erasure)
    },
  )
}
