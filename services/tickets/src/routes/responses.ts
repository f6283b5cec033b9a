import { ErrorBody } from '@switchboard/contracts'

/** The error responses a route documents, each with the fleet's one error body. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<number, typeof ErrorBody>
