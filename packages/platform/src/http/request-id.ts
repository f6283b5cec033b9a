import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { REQUEST_ID_HEADER } from '@switchboard/contracts'

// What a caller may hand us as its request id: short, printable, no spaces — safe in logs and headers as is.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Fastify's `genReqId` for every unit of the fleet (services and the gateway): the caller's `x-request-id` when well
 * formed, so one id follows a request across hops; a fresh UUID otherwise.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}
