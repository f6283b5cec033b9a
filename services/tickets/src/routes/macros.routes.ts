import { hasPermission } from '@switchboard/auth'
import {
  CommonErrors,
  callerOf,
  errorResponses,
  pageOf,
  pageWindow,
  type RouteModule,
  scopeOf,
} from '@switchboard/platform'
import { applyMacro, createMacro, removeMacro, updateMacro } from '../commands/macro.commands.ts'
import type { TicketsService } from '../context.ts'
import { findMacro, listMacros } from '../db/macros.repository.ts'
import { MacroErrors } from '../errors.ts'
import {
  AppliedToSession,
  AppliedToTicket,
  ApplyMacroBody,
  CreateMacroBody,
  ListMacrosQuery,
  Macro,
  MacroPage,
  UpdateMacroBody,
} from '../schemas/macro.schemas.ts'
import { IdParams } from '../schemas/sla.schemas.ts'

const tags = ['macros']

/** `/api/macros*`: canned replies of a scope, and applying one to a ticket or a conversation. */
export const macroRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/api/macros',
    { schema: { tags, body: CreateMacroBody, response: { 201: Macro, ...errorResponses(400, 401, 409) } } },
    async (request, reply) => {
      const macro = await createMacro(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: macro.id, after: macro }
      return reply.code(201).send(macro)
    },
  )

  app.get(
    '/api/macros',
    { schema: { tags, querystring: ListMacrosQuery, response: { 200: MacroPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const { page: _p, page_size: _s, ...filters } = request.query
      const window = pageWindow(request.query)
      const { rows, total } = await listMacros(svc.db, svc.dialect, scopeOf(request), filters, window)
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/macros/:id',
    { schema: { tags, params: IdParams, response: { 200: Macro, ...errorResponses(401, 404) } } },
    async (request) => {
      const macro = await findMacro(svc.db, request.params.id, scopeOf(request))
      if (!macro) throw new MacroErrors.NotFound(request.params.id)
      return macro
    },
  )

  app.put(
    '/api/macros/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateMacroBody,
        response: { 200: Macro, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const { before, after } = await updateMacro(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  app.delete(
    '/api/macros/:id',
    {
      schema: {
        tags,
        params: IdParams,
        response: { 204: { description: 'deleted', type: 'null' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const before = await removeMacro(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: before.id, before }
      return reply.code(204).send()
    },
  )

  // 201 with the comment when applied to a ticket; 200 with the text when for a session (nothing was created).
  app.post(
    '/api/macros/:id/apply',
    {
      schema: {
        tags,
        params: IdParams,
        body: ApplyMacroBody,
        response: {
          200: AppliedToSession,
          201: AppliedToTicket,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      // The gateway lets readers of macros apply them (nothing of the macro changes); commenting on a ticket is a
      // ticket write, checked here.
      if (
        'ticket_id' in request.body &&
        request.body.ticket_id &&
        !hasPermission(request.principal.permissions, 'tickets.write')
      ) {
        throw new CommonErrors.Forbidden('permission tickets.write is required to apply a macro to a ticket')
      }
      const applied = await applyMacro(svc, callerOf(request), request.params.id, request.body)
      if (applied.kind === 'session') return reply.code(200).send(applied.result)
      request.audit = { ...request.audit, resource_id: applied.result.ticket_id, after: applied.result.comment }
      return reply.code(201).send(applied.result)
    },
  )
}
