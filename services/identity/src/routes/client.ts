import type { FastifyRequest } from 'fastify'
import type { ClientInfo } from '../domain/auth-flow.ts'
import { clientIp, deviceFingerprint } from '../domain/fingerprint.ts'

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** user agent, client address (X-Forwarded-For only from the gateway) and device fingerprint of a request. */
export function clientInfo(request: FastifyRequest): ClientInfo {
  const userAgent = (header(request, 'user-agent') ?? '').slice(0, 512)
  const ip = clientIp(
    request.socket.remoteAddress ?? request.ip,
    header(request, 'x-forwarded-for'),
    request.server.identity.trustedProxies,
  )
  return {
    user_agent: userAgent,
    client_ip: ip,
    device_fingerprint: deviceFingerprint(header(request, 'x-device-id'), userAgent, ip),
  }
}
