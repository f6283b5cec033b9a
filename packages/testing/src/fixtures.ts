import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import pg from 'pg'
import { engine, uniqueId } from './engines.ts'

/** What a fixture needs of a tap test: somewhere to put its cleanup (run last-in, first-out). */
export interface Teardowns {
  teardown(fn: () => unknown): void
}

/** A Redis key prefix of its own for one test (`<id>:`). */
export function redisPrefix(label = 'rd'): string {
  return `${uniqueId(label)}:`
}

/** A NATS prefix of its own for one test: the bus names its streams `<PREFIX>_<STREAM>`. */
export function natsPrefix(label = 'nt'): string {
  return uniqueId(label)
}

export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  } finally {
    await client.end()
  }
}

/** Deletes every JetStream stream a prefix owns. */
export async function deleteNatsStreams(url: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: url })
  try {
    const jsm = await jetstreamManager(nc)
    const mine = `${prefix}_`.toUpperCase()
    for await (const name of jsm.streams.names()) if (name.startsWith(mine)) await jsm.streams.delete(name)
  } finally {
    await nc.close()
  }
}

/** The retention limits of a stream as the server has them: `max_age` in ns (0: none), `max_bytes` (-1: none). */
export interface NatsStreamLimits {
  max_age: number
  max_bytes: number
}

/**
 * Reads a stream's limits, after setting some of them first when `set` is given (what an operator's
 * `nats stream edit --max-age …` does), so that tests outside the events package can check what a unit's start did.
 */
export async function natsStreamLimits(
  url: string,
  stream: string,
  set?: Partial<NatsStreamLimits>,
): Promise<NatsStreamLimits> {
  const nc = await connect({ servers: url })
  try {
    const jsm = await jetstreamManager(nc)
    let { config } = await jsm.streams.info(stream)
    if (set) config = (await jsm.streams.update(stream, { ...config, ...set })).config
    return { max_age: config.max_age, max_bytes: config.max_bytes }
  } finally {
    await nc.close()
  }
}

/**
 * A PostgreSQL schema name of its own for one test, dropped (CASCADE) at teardown. The schema is not
 * created unless `create` is set: platform's createDatabase creates the schema it is given.
 */
export async function pgSchemaFixture(
  t: Teardowns,
  opts: { label?: string; schema?: string; create?: boolean } = {},
): Promise<{ url: string; schema: string }> {
  const url = await engine('postgres')
  const schema = opts.schema ?? uniqueId(opts.label ?? 'pg')
  t.teardown(() => dropPgSchema(url, schema))
  if (opts.create) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(`CREATE SCHEMA "${schema}"`)
    } finally {
      await client.end()
    }
  }
  return { url, schema }
}

/** A NATS prefix of its own for one test; the streams it made are deleted at teardown. */
export async function natsPrefixFixture(
  t: Teardowns,
  opts: { label?: string; prefix?: string } = {},
): Promise<{ url: string; prefix: string }> {
  const url = await engine('nats')
  const prefix = opts.prefix ?? natsPrefix(opts.label)
  t.teardown(() => deleteNatsStreams(url, prefix))
  return { url, prefix }
}
