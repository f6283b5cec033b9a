// The unit registry (packages/contracts/src/units.ts), each service's descriptor and the gateway's table agree:
// every public route a service serves lies under a prefix the gateway sends to that service, and nothing a
// service serves is routed elsewhere; and every route's schemas compile. A route added under the wrong prefix, or a
// prefix moved in the registry without its routes, fails here rather than as a 404 or a 503 in production.
import { randomBytes } from 'node:crypto'
import { loadUnit, SERVICES } from '@switchboard/cli'
import { createServiceTable } from '@switchboard/gateway'
import { createRootLogger } from '@switchboard/platform'
import t from 'tap'

const env = {
  DB_DRIVER: 'sqlite',
  SQLITE_FILE: ':memory:',
  CACHE_DRIVER: 'memory',
  BUS_DRIVER: 'memory',
  LOG_LEVEL: 'silent',
  JWT_SECRET: randomBytes(32).toString('base64url'),
  INTERNAL_SECRET: randomBytes(32).toString('base64url'),
  // services that call others need their addresses to start; nothing is called here
  UPSTREAM_CONVERSATIONS: 'http://127.0.0.1:9',
  UPSTREAM_IDENTITY: 'http://127.0.0.1:9',
}
const logger = createRootLogger({ level: 'silent' })
const table = createServiceTable()

for (const unit of SERVICES) {
  t.test(`${unit.name}: descriptor, registry and gateway table agree`, async (t) => {
    const module = await loadUnit(unit)
    const descriptor = module.service as { name: string; defaultPort: number; prefixes: readonly string[] }
    t.ok(descriptor, 'src/index.ts exports its descriptor as `service`')
    t.equal(descriptor.name, unit.name, 'the descriptor names its registry line')
    t.equal(descriptor.defaultPort, unit.port)
    t.same(descriptor.prefixes, unit.prefixes)

    const app = await module.build(module.loadConfig(env), { logger })
    t.teardown(() => app.close())
    const doc = await (app as unknown as { inject(o: { url: string }): Promise<{ json(): any }> }).inject({
      url: '/openapi.json',
    })
    const paths = Object.keys(doc.json().paths ?? {})
    t.ok(paths.length > 0, `${paths.length} documented paths`)
    for (const documented of paths) {
      const path = documented.replace(/\{[^}]+\}/g, 'x')
      t.equal(table.serviceFor(path), unit.name, `${documented} → ${unit.name}`)
    }
    for (const prefix of unit.prefixes) t.equal(table.serviceFor(prefix), unit.name, `the gateway routes ${prefix}`)
    // Routes compile their schemas on first use (platform's lazy-schemas.ts): here every one of them, so a schema
    // that cannot compile fails the suite instead of its route's first request.
    t.doesNotThrow(() => (app as unknown as { compileSchemas(): void }).compileSchemas(), 'every route schema compiles')
  })
}

t.test('internal routes are never reachable through the gateway', async (t) => {
  t.equal(table.serviceFor('/internal/token-state'), undefined)
  t.equal(table.serviceFor('/internal/sessions'), undefined)
})
