import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { createCache, createDatabase, createRootLogger } from '@switchboard/platform'

export interface NamespaceEngines {
  databaseUrl?: string
  redisUrl?: string
  natsUrl?: string
}

export interface DroppedNamespace {
  schemas: string[]
  redisKeys: number
  streams: string[]
}

const NS = /^[a-z_][a-z0-9_]{2,62}$/

/**
 * Removes everything a namespaced fleet (or test) left behind: PostgreSQL schemas `<ns>_*`, Redis keys
 * `<ns>:*`, JetStream streams `<NS>_*`. Refuses names that could match unrelated data.
 */
export async function dropNamespace(namespace: string, engines: NamespaceEngines = {}): Promise<DroppedNamespace> {
  if (!NS.test(namespace)) throw new Error(`namespace ${namespace}: want a lower-case identifier of 3+ characters`)
  const logger = createRootLogger({ level: 'warn' })
  const out: DroppedNamespace = { schemas: [], redisKeys: 0, streams: [] }

  const database = await createDatabase<any>(
    {
      driver: 'postgres',
      url: engines.databaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test',
      schema: 'public',
      pool_max: 1,
    },
    logger,
  )
  try {
    const like = `${namespace.replaceAll('_', '\\_')}\\_%`
    const rows = await database.db
      .selectFrom('pg_catalog.pg_namespace')
      .select('nspname')
      .where('nspname', 'like', like)
      .execute()
    for (const { nspname } of rows as Array<{ nspname: string }>) {
      await database.db.schema.dropSchema(nspname).ifExists().cascade().execute()
      out.schemas.push(nspname)
    }
  } finally {
    await database.close()
  }

  const cache = createCache({ driver: 'redis', url: engines.redisUrl ?? 'redis://127.0.0.1:6379', prefix: '' })
  try {
    const redis = cache.redis!
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 500)
      cursor = next
      if (keys.length) out.redisKeys += await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    await cache.close()
  }

  const nc = await connect({ servers: engines.natsUrl ?? 'nats://127.0.0.1:4222', name: 'switchboard-cleanup' })
  try {
    const jsm = await jetstreamManager(nc)
    const head = `${namespace}_`.toUpperCase()
    for await (const name of jsm.streams.names()) {
      if (!name.startsWith(head)) continue
      await jsm.streams.delete(name)
      out.streams.push(name)
    }
  } finally {
    await nc.drain()
  }
  return out
}
