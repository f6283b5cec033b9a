import type { FastifyRequest } from 'fastify'
import { type Cidr, type ClientInfo, clientIp, deviceFingerprint } from '../domain/fingerprint.ts'

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** user agent, client address (X-Forwarded-For only from a trusted proxy) and device fingerprint of a request. */
export function clientInfo(request: FastifyRequest, trustedProxies: readonly Cidr[]): ClientInfo {
  const userAgent = (header(request, 'user-agent') ?? '').slice(0, 512)
  const ip = clientIp(request.socket.remoteAddress ?? request.ip, header(request, 'x-forwarded-for'), trustedProxies)
  return {
    user_agent: userAgent,
    client_ip: ip,
    device_fingerprint: deviceFingerprint(header(request, 'x-device-id'), userAgent, ip),
  }
}
