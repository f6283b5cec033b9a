import t from 'tap'
import { namespaced } from '../src/fleet.ts'
import { portRange } from '../src/ports.ts'

t.test('a namespace isolates every engine; without one the plain per-service schema is used', async (t) => {
  t.same(namespaced({}, 'identity', 'e2e_abc'), {
    DB_SCHEMA: 'e2e_abc_identity',
    CACHE_PREFIX: 'e2e_abc:',
    NATS_PREFIX: 'e2e_abc',
  })
  t.same(namespaced({}, 'tickets', undefined), { DB_SCHEMA: 'tickets' })
  t.same(namespaced({ DB_SCHEMA_PREFIX: 'staging_' }, 'audit', undefined), { DB_SCHEMA: 'staging_audit' })
})

t.test('ports: consecutive from a base, or distinct free ones for 0', async (t) => {
  t.same(await portRange(8101, 3), [8101, 8102, 8103])
  const free = await portRange(0, 4)
  t.equal(new Set(free).size, 4)
  for (const p of free) t.ok(p > 0 && p < 65536)
})
