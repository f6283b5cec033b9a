import { callerOf, errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import { createCustomField, deleteCustomField, updateCustomField } from '../commands/custom-field.commands.ts'
import type { TicketsService } from '../context.ts'
import { findCustomField, listCustomFields } from '../db/custom-fields.repository.ts'
import { CustomFieldErrors } from '../errors.ts'
import {
  CreateCustomFieldBody,
  CustomField,
  CustomFieldList,
  CustomFieldParams,
  Deleted,
  ListCustomFieldsQuery,
  UpdateCustomFieldBody,
} from '../schemas/custom-fields.schemas.ts'

const tags = ['custom-fields']

/** `/api/custom-fields`: the definitions ticket values are checked against, per workspace. */
export const customFieldRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/custom-fields',
    {
      schema: {
        tags,
        querystring: ListCustomFieldsQuery,
        response: { 200: CustomFieldList, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const items = await listCustomFields(svc.db, scopeOf(request), request.query)
      return { count: items.length, items }
    },
  )

  app.post(
    '/api/custom-fields',
    {
      schema: {
        tags,
        body: CreateCustomFieldBody,
        response: { 201: CustomField, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const field = await createCustomField(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: field.id, after: field }
      return reply.code(201).send(field)
    },
  )

  app.get(
    '/api/custom-fields/:id',
    { schema: { tags, params: CustomFieldParams, response: { 200: CustomField, ...errorResponses(401, 404) } } },
    async (request) => {
      const field = await findCustomField(svc.db, request.params.id, scopeOf(request))
      if (!field) throw new CustomFieldErrors.NotFound(request.params.id)
      return field
    },
  )

  app.put(
    '/api/custom-fields/:id',
    {
      schema: {
        tags,
        params: CustomFieldParams,
        body: UpdateCustomFieldBody,
        response: { 200: CustomField, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { before, after } = await updateCustomField(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.delete(
    '/api/custom-fields/:id',
    { schema: { tags, params: CustomFieldParams, response: { 200: Deleted, ...errorResponses(401, 404) } } },
    async (request) => {
      const before = await deleteCustomField(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: before.id, before }
      return { id: before.id, message: 'deleted' as const }
    },
  )
}
