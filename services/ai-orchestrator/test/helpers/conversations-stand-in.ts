import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Scope } from '@switchboard/platform'

/**
 * conversations' `GET /internal/sessions/:id` as a small real HTTP server: a session is found when the calling
 * principal's scope holds it (or the principal is unscoped), else the 404 of a missing one — as conversations
 * answers. The principal's scope is read from the token's claims (the signature is conversations' business).
 */
export async function sessionsStandIn(sessions: Record<string, Scope>) {
  const asked: string[] = []
  const server = createServer((req, res) => {
    const json = (status: number, v: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v))
    const m = /^\/internal\/sessions\/([^/?]+)$/.exec(req.url ?? '')
    if (!m || req.method !== 'GET') return json(404, { code: 'ROUTE_NOT_FOUND' })
    const id = decodeURIComponent(m[1]!)
    asked.push(id)
    const token = String(req.headers['x-switchboard-principal'] ?? '')
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}')
    const p = (claims.principal ?? {}) as Partial<Scope>
    const s = sessions[id]
    const visible =
      s && (!p.tenant_id || p.tenant_id === s.tenant_id) && (!p.workspace_id || p.workspace_id === s.workspace_id)
    if (!visible) return json(404, { code: 'CONVERSATIONS_SESSION_NOT_FOUND', message: `session ${id} not found` })
    return json(200, { id, ...s, status: 'active' })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, asked, close: () => new Promise<void>((r) => server.close(() => r())) }
}
