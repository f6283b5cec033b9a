import swagger from '@fastify/swagger'
import type { AnyApp } from './app.ts'

/**
 * The service's OpenAPI document, generated from its route schemas (never written by hand) and served at
 * `/openapi.json`; the gateway merges every service's document into one at its own `/openapi.json`.
 * Must be registered before the routes it documents.
 */
export async function installOpenApi(app: AnyApp, service: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `Switchboard ${service}`, version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    // internal routes and the operational endpoints stay out of the public document
    transform: ({ schema, url }) => ({
      schema: (url.startsWith('/internal/') || ['/health', '/ready', '/metrics', '/openapi.json'].includes(url)
        ? { ...schema, hide: true }
        : schema) as never,
      url,
    }),
  })
  app.get('/openapi.json', async () => app.swagger())
}
