import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { createShift, deleteShift, updateShift } from '../commands/shifts.commands.ts'
import type { ConversationsService } from '../context.ts'
import { findShift, listShifts, shiftStats } from '../db/shifts.repository.ts'
import { listBound } from '../domain/shift-rules.ts'
import { ConversationErrors } from '../errors.ts'
import {
  CreateShiftBody,
  ListShiftsQuery,
  Shift,
  ShiftPage,
  ShiftParams,
  ShiftStats,
  UpdateShiftBody,
} from '../schemas/shifts.schemas.ts'

const tags = ['shifts']

function bound(name: 'date_from' | 'date_to', value: string | undefined) {
  if (value === undefined) return undefined
  const b = listBound(value, name === 'date_from' ? 'from' : 'to')
  if ('problem' in b) throw new ConversationErrors.ShiftDateBound(name, b.problem)
  return b
}

/** `/api/shifts`: agents' shift schedules, scoped; routing reads them (agentsOnShift). */
export const shiftRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  // A static segment: the router prefers it to `/:id` whatever the order, so `stats` is never taken for an id.
  app.get(
    '/api/shifts/stats',
    { schema: { tags, response: { 200: ShiftStats, ...errorResponses(401) } } },
    async (request) => shiftStats(svc.db, scopeOf(request), new Date()),
  )

  app.post(
    '/api/shifts',
    { schema: { tags, body: CreateShiftBody, response: { 201: Shift, ...errorResponses(400, 401) } } },
    async (request, reply) => {
      const shift = await createShift(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: shift.id, after: shift }
      return reply.code(201).send(shift)
    },
  )

  app.get(
    '/api/shifts',
    { schema: { tags, querystring: ListShiftsQuery, response: { 200: ShiftPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const q = request.query
      const from = bound('date_from', q.date_from)
      const to = bound('date_to', q.date_to)
      const window = pageWindow(q)
      const { rows, total } = await listShifts(
        svc.db,
        scopeOf(request),
        {
          agent_id: q.agent_id,
          shift_type: q.shift_type,
          status: q.status,
          from: from?.at,
          to: to?.at,
          to_exclusive: to?.exclusive,
          sort_by: q.sort_by ?? 'start_time',
          sort_order: q.sort_order ?? 'asc',
        },
        window,
      )
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/shifts/:id',
    { schema: { tags, params: ShiftParams, response: { 200: Shift, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const shift = await findShift(svc.db, request.params.id, scopeOf(request))
      if (!shift) throw new ConversationErrors.ShiftNotFound(request.params.id)
      return shift
    },
  )

  app.put(
    '/api/shifts/:id',
    {
      schema: {
        tags,
        params: ShiftParams,
        body: UpdateShiftBody,
        response: { 200: Shift, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { before, after } = await updateShift(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return after
    },
  )

  // 204 without a body: the earlier system's `{"message": …}` carried nothing a client could use.
  app.delete(
    '/api/shifts/:id',
    {
      schema: {
        tags,
        params: ShiftParams,
        response: { 204: { description: 'deleted', type: 'null' }, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const before = await deleteShift(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, resource_id: before.id, before }
      return reply.code(204).send()
    },
  )
}
