import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { harness } from './fixtures/gateway.ts'
import { deadUrl } from './fixtures/upstream.ts'

/** A service answering /openapi.json with a document of its own paths. */
async function documentedService(paths: Record<string, unknown>) {
  const server = createServer((req, res) => {
    if (req.url === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ openapi: '3.1.0', paths, components: { schemas: { Thing: { type: 'object' } } } }))
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

t.test('one OpenAPI document merged from every service, and Swagger UI over it', async (t) => {
  const tickets = await documentedService({ '/api/tickets': { get: {} }, '/api/tickets/{id}': { get: {} } })
  const identity = await documentedService({ '/api/v1/auth/login': { post: {} } })
  t.teardown(() => {
    tickets.close()
    identity.close()
  })
  const h = await harness(t, {
    env: { UPSTREAM_TICKETS: tickets.url, UPSTREAM_IDENTITY: identity.url, UPSTREAM_AUDIT: await deadUrl() },
  })
  const res = await h.app.inject({ url: '/openapi.json' })
  t.equal(res.statusCode, 200, 'anonymous')
  const doc = res.json()
  t.ok(doc.paths['/api/tickets/{id}'] && doc.paths['/api/v1/auth/login'], 'paths of both services')
  t.ok(doc.components.schemas.Thing, 'component schemas kept')
  t.ok(doc['x-unavailable'].includes('audit'), 'a service that does not answer is named, not fatal')
  const ui = await h.app.inject({ url: '/docs/' })
  t.equal(ui.statusCode, 200)
  t.match(ui.headers['content-type'], /html/)
  const uiSpec = await h.app.inject({ url: '/docs/json' })
  t.ok(uiSpec.json().paths['/api/tickets'], 'the UI shows the merged document')
})
