import type { AddressInfo } from 'node:net'
import type { Envelope, Principal } from '@switchboard/contracts'
import { conversations, loadConfig as conversationsConfig } from '@switchboard/conversations'
import { createJetStreamBus, createMemoryBus, type EventBus } from '@switchboard/events'
import {
  ACME_ADMIN,
  principalHeader,
  type StorageMode,
  silentLogger,
  storageFixture,
  testPrincipal,
} from '@switchboard/testing'
import type { Test } from 'tap'
import { realtimeVoice } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'

export const INTERNAL_SECRET = 'test-internal-secret-0123456789'
export const ACME_SUPPORT = { tenant_id: 'acme', workspace_id: 'support' }

/** An agent of acme/support who may use voice and read its conversations. */
const ACME_AGENT: Principal = {
  ...ACME_ADMIN,
  user_id: 'agent-1',
  kind: 'agent',
  roles: ['agent'],
  permissions: ['voice.read', 'voice.write', 'workspace.read', 'workspace.write'],
}

export const principal = (overrides: Partial<Principal> = {}) => testPrincipal(overrides, ACME_AGENT)
/** A service of acme/support: reads conversations' internal API as the hub would. */
export const servicePrincipal = (overrides: Partial<Principal> = {}) =>
  testPrincipal({ user_id: 'voice-tests', kind: 'service', roles: [], permissions: ['*'], ...overrides }, ACME_ADMIN)

/** The header the gateway would add for this principal. */
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/** Audio types conversations' uploads take in these tests (its defaults take none: an operator adds them). */
const AUDIO_TYPES = 'audio/wav,audio/ogg,audio/mpeg,audio/webm,image/png,text/plain'

/**
 * The real conversations service, listening on loopback, and a realtime-voice app that calls it, both closed and
 * cleaned up when the test ends. They share the cache, the bus configuration and one bus instance (the test reads
 * the REALTIME stream from it); each has its own database schema, as in the fleet, where every service owns its
 * tables and its migration ledger.
 */
export async function voiceApps(t: Test, mode: StorageMode, opts: { env?: NodeJS.ProcessEnv } = {}) {
  // Teardowns run last-in first-out: the apps close before the bus, the bus before the storage goes.
  const shared = await storageFixture(t, mode, 'cv')
  const bus: EventBus =
    shared.bus.driver === 'nats'
      ? await createJetStreamBus({ url: shared.bus.url, prefix: shared.bus.prefix, logger: silentLogger() })
      : createMemoryBus({ logger: silentLogger() })
  t.teardown(() => bus.close())
  const conv = await conversations.build(
    {
      ...conversationsConfig({
        INTERNAL_SECRET,
        LOG_LEVEL: 'silent',
        DB_DRIVER: shared.mode === 'sqlite' ? 'sqlite' : 'postgres',
        UPLOAD_DIR: t.testdir(),
        UPLOAD_CONTENT_TYPES: AUDIO_TYPES,
      }),
      port: 0,
      database: shared.database,
      cache: shared.cache,
      bus: shared.bus,
    },
    { logger: silentLogger(), bus },
  )
  t.teardown(() => conv.close())
  await conv.listen({ port: 0, host: '127.0.0.1' })
  const conversationsUrl = `http://127.0.0.1:${(conv.server.address() as AddressInfo).port}`

  const own = await storageFixture(t, mode, 'rv')
  const config = {
    ...loadConfig({
      INTERNAL_SECRET,
      LOG_LEVEL: 'silent',
      UPSTREAM_CONVERSATIONS: conversationsUrl,
      // never called by these tests; the hub's config needs one
      UPSTREAM_IDENTITY: 'http://127.0.0.1:9',
      ...opts.env,
    }),
    port: 0,
    database: own.database,
    cache: shared.cache,
    bus: shared.bus,
  }
  const app = await realtimeVoice.build(config, { logger: silentLogger(), bus })
  t.teardown(() => app.close())
  await app.ready()
  await app.whenStarted() // the hub subscribed to conversations' events
  return { app, conv, bus, svc: realtimeVoice.contextOf(app) }
}

/** Everything a stream holds now, in order. */
export async function streamEvents(bus: EventBus, stream: string): Promise<Envelope<Record<string, unknown>>[]> {
  const out: Envelope<Record<string, unknown>>[] = []
  await bus.replay(stream, {}, async (d) => {
    out.push(d.envelope as Envelope<Record<string, unknown>>)
  })
  return out
}
