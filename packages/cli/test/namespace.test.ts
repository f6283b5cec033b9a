import { createJetStreamBus } from '@switchboard/events'
import { createCache, createDatabase, createRootLogger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { dropNamespace } from '../src/namespace.ts'

const engines = engineUrls()
const logger = createRootLogger({ level: 'silent' })

t.test('dropNamespace removes the schemas, keys and streams of one namespace and nothing else', async (t) => {
  const ns = uniqueId('nsd')
  const other = uniqueId('nsk')
  const make = async (n: string) => {
    const database = await createDatabase<any>(
      { driver: 'postgres', url: engines.databaseUrl, schema: `${n}_identity`, pool_max: 1 },
      logger,
    )
    await database.db.schema.createTable('probe').addColumn('id', 'integer').execute()
    await database.close()
    const cache = createCache({ driver: 'redis', url: engines.redisUrl, prefix: `${n}:` })
    await cache.set('k', 'v')
    await cache.close()
    const bus = await createJetStreamBus({ url: engines.natsUrl, prefix: n, logger })
    await bus.ensureStreams([{ name: 'TICKETS', subjects: ['tickets.>'] }])
    await bus.close()
  }
  await make(ns)
  await make(other)
  t.teardown(() => dropNamespace(other, engines))

  const dropped = await dropNamespace(ns, engines)
  t.same(dropped.schemas, [`${ns}_identity`])
  t.equal(dropped.redisKeys, 1)
  t.ok(dropped.streams.includes(`${ns}_TICKETS`.toUpperCase()), 'its streams')
  t.ok(
    dropped.streams.every((s) => s.startsWith(`${ns}_`.toUpperCase())),
    'only its streams',
  )
  const again = await dropNamespace(ns, engines)
  t.same(again, { schemas: [], redisKeys: 0, streams: [] }, 'idempotent')
  const untouched = await dropNamespace(other, engines)
  t.equal(untouched.schemas.length, 1, 'the other namespace was left alone')
  t.equal(untouched.redisKeys, 1)
  await t.rejects(dropNamespace('a', engines), /namespace/)
})
