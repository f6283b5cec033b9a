import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { Dispatcher } from 'undici'
import { request } from 'undici'

type Doc = { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } }

export interface DocsOptions {
  upstreams: Record<string, string[]>
  dispatcher: Dispatcher
  /** how long a merged document is reused before the services are asked again */
  ttlMs?: number
}

/**
 * One OpenAPI document for the whole API, merged from every service's own (each generated from its route
 * schemas), at `/openapi.json`, and Swagger UI over it at `/docs`. A service that does not answer is left
 * out and named under `x-unavailable`, so the document never blocks on one outage.
 */
export async function docsRoutes(app: FastifyInstance, opts: DocsOptions) {
  const ttlMs = opts.ttlMs ?? 30_000
  let cached: { doc: Record<string, unknown>; at: number } | undefined

  async function fetchDoc(base: string): Promise<Doc | undefined> {
    try {
      const res = await request(`${base}/openapi.json`, {
        dispatcher: opts.dispatcher,
        headersTimeout: 2000,
        bodyTimeout: 2000,
      })
      if (res.statusCode !== 200) {
        await res.body.dump()
        return undefined
      }
      return (await res.body.json()) as Doc
    } catch {
      return undefined
    }
  }

  async function merged(): Promise<Record<string, unknown>> {
    if (cached && Date.now() - cached.at < ttlMs) return cached.doc
    const services = Object.entries(opts.upstreams).filter(([, urls]) => urls.length > 0)
    const docs = await Promise.all(services.map(async ([name, urls]) => [name, await fetchDoc(urls[0]!)] as const))
    const paths: Record<string, unknown> = {}
    const schemas: Record<string, unknown> = {}
    const unavailable: string[] = []
    for (const [name, doc] of docs) {
      if (!doc) {
        unavailable.push(name)
        continue
      }
      Object.assign(paths, doc.paths ?? {})
      Object.assign(schemas, doc.components?.schemas ?? {})
    }
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Switchboard API', version: '0.1.0', description: 'Every service behind this gateway.' },
      servers: [{ url: '/' }],
      security: [{ bearer: [] }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas,
      },
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
      ...(unavailable.length ? { 'x-unavailable': unavailable } : {}),
    }
    cached = { doc, at: Date.now() }
    return doc
  }

  app.get('/openapi.json', async () => merged())

  // Swagger UI serves its own copy of the spec at /docs/json; it is the merged one, refreshed per request.
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'Switchboard API', version: '0.1.0' } } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiHooks: {
      onRequest: (request, _reply, done) => {
        if (!request.url.startsWith('/docs/json')) return done()
        merged().then(() => done(), done)
      },
    },
    transformSpecification: () => cached?.doc ?? {},
  })
}
