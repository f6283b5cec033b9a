import { ErrorBody } from '@switchboard/contracts'
import type { FastifyRequest } from 'fastify'

/**
 * The error responses a route documents, each with the fleet's one error body (docs/api.md §5):
 * `response: { 200: Ticket, ...errorResponses(400, 401, 404) }`.
 */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<number, typeof ErrorBody>

/**
 * A `preValidation` hook for routes whose body fields are all optional: a bare POST (curl -X POST, no
 * content-type) is taken as `{}` instead of failing validation.
 */
export function optionalBody(request: FastifyRequest, _reply: unknown, done: () => void) {
  request.body ??= {}
  done()
}
