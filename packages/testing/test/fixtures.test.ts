import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import pg from 'pg'
import t from 'tap'
import { engine } from '../src/engines.ts'
import { natsPrefixFixture, pgSchemaFixture, redisPrefix } from '../src/fixtures.ts'
import { inEachStorageMode, type Storage, storageFixture } from '../src/storage.ts'

async function schemaExists(url: string, schema: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const r = await c.query('select 1 from information_schema.schemata where schema_name = $1', [schema])
    return r.rowCount === 1
  } finally {
    await c.end()
  }
}

async function streamNames(url: string): Promise<string[]> {
  const nc = await connect({ servers: url })
  try {
    const names: string[] = []
    for await (const name of (await jetstreamManager(nc)).streams.names()) names.push(name)
    return names
  } finally {
    await nc.close()
  }
}

t.test('pgSchemaFixture: a fresh schema name, created on request, dropped at teardown', async (t) => {
  let fixture = { url: '', schema: '' }
  await t.test('inside', async (t) => {
    fixture = await pgSchemaFixture(t, { label: 'fx', create: true })
    t.match(fixture.schema, /^fx_/)
    t.equal(await schemaExists(fixture.url, fixture.schema), true)
  })
  t.equal(await schemaExists(fixture.url, fixture.schema), false, 'gone after the subtest')
})

t.test('natsPrefixFixture: the prefix streams are deleted at teardown, others kept', async (t) => {
  const url = await engine('nats')
  let prefix = ''
  const nc = await connect({ servers: url })
  t.teardown(() => nc.close())
  const jsm = await jetstreamManager(nc)
  await t.test('inside', async (t) => {
    ;({ prefix } = await natsPrefixFixture(t, { label: 'fx' }))
    await jsm.streams.add({ name: `${prefix.toUpperCase()}_ONE`, subjects: [`${prefix}.one.>`] })
  })
  t.notOk((await streamNames(url)).some((n) => n.startsWith(`${prefix.toUpperCase()}_`)))
})

t.test('redisPrefix: unique and colon-terminated', async (t) => {
  t.match(redisPrefix('gw'), /^gw_.+:$/)
  t.not(redisPrefix(), redisPrefix())
})

t.test('inEachStorageMode: one subtest per mode with the fragments that mode uses', async (t) => {
  const seen: Storage[] = []
  await inEachStorageMode(t, 'storage', async (t, mode) => {
    const store = await storageFixture(t, mode, 'st')
    seen.push(store)
    t.equal(store.mode, mode)
    t.equal(t.name, `storage (${mode})`)
  })
  const [postgres, sqlite] = seen
  t.match(postgres, {
    mode: 'postgres',
    database: { driver: 'postgres', url: /^postgres:/, schema: /^st_/, pool_max: 4 },
    cache: { driver: 'redis', url: /^redis:/, prefix: /^st_.+:$/ },
    bus: { driver: 'nats', url: /^nats:/, prefix: /^st_/ },
  })
  t.equal(postgres!.database.driver === 'postgres' && postgres!.database.schema, postgres!.prefix)
  t.same(sqlite, {
    mode: 'sqlite',
    database: { driver: 'sqlite', file: ':memory:' },
    cache: { driver: 'memory', prefix: `${sqlite!.prefix}:` },
    bus: { driver: 'memory' },
    prefix: sqlite!.prefix,
  })
})
