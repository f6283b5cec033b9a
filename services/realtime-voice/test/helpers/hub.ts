import type { Principal } from '@switchboard/contracts'
import { type ConversationsService, conversations } from '@switchboard/conversations'
import { createMemoryBus, type EventBus } from '@switchboard/events'
import { identity } from '@switchboard/identity'
import { type Cache, createCache, nowIso, toJson } from '@switchboard/platform'
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

export const INTERNAL_SECRET = 'realtime-test-internal-secret-0123456789'

// The principals the gateway would sign (docs/api.md §3): kinds and scopes as its tokens would give them.
export const agent = (user_id = 'agent-1', over: Partial<Principal> = {}) =>
  testPrincipal({
    user_id,
    kind: 'agent',
    roles: ['agent'],
    permissions: ['workspace.read', 'workspace.write', 'session_transfer.read', 'session_transfer.write'],
    ...over,
  })
export const customer = (user_id: string, over: Partial<Principal> = {}) =>
  testPrincipal({ user_id, kind: 'end_user', roles: ['customer'], permissions: [], ...over })
export const service = (user_id = 'monitor', over: Partial<Principal> = {}) =>
  testPrincipal({ user_id, kind: 'service', roles: [], permissions: ['*'], ...over })
export const admin = (over: Partial<Principal> = {}) => testPrincipal(over, ACME_ADMIN)

export const headersOf = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * The hub with what it talks to, on real engines: conversations (its internal API and its events on the same
 * bus), identity (the widget rule; tenant acme with workspaces support, sales, and closed — no widget there),
 * and `replicas` hub replicas on one bus and cache (NATS + Redis, or one in-process bus and memory cache), each
 * listening on a port of its own. `env` adds hub settings.
 */
export async function hubFixture(
  t: Test,
  mode: StorageMode,
  opts: { replicas?: number; env?: NodeJS.ProcessEnv } = {},
) {
  const store = await storageFixture(t, mode, 'rv')
  const shared: { bus?: EventBus; cache?: Cache } = {}
  if (mode === 'sqlite') {
    // the embedded mode: one bus and one cache for every unit of the process
    shared.bus = createMemoryBus({ logger: silentLogger() })
    shared.cache = createCache({ driver: 'memory', prefix: `${store.prefix}:` })
    const { bus, cache } = shared
    t.teardown(async () => {
      await bus.close()
      await cache.close()
    })
  }
  const deps = { logger: silentLogger(), ...shared }
  const db = mode === 'sqlite' ? 'sqlite' : 'postgres'

  const convApp = await conversations.build(
    {
      ...conversations.loadConfig({
        INTERNAL_SECRET,
        LOG_LEVEL: 'silent',
        DB_DRIVER: db,
        QUEUE_INTERVAL_MS: '3600000',
      }),
      port: 0,
      database: store.database,
      cache: store.cache,
      bus: store.bus,
    },
    deps,
  )
  t.teardown(() => convApp.close())
  const conversationsUrl = await convApp.listen({ port: 0, host: '127.0.0.1' })

  const idStore = await storageFixture(t, mode, 'rvid')
  const idApp = await identity.build(
    {
      ...identity.loadConfig({
        INTERNAL_SECRET,
        JWT_SECRET: 'realtime-test-jwt-secret-0123456789abcdef',
        LOG_LEVEL: 'silent',
        ARGON2_MEMORY_COST_KIB: '1024',
        ARGON2_TIME_COST: '1',
      }),
      port: 0,
      database: idStore.database,
      cache: idStore.cache,
      bus: idStore.bus,
    },
    { logger: silentLogger() },
  )
  t.teardown(() => idApp.close())
  const identityUrl = await idApp.listen({ port: 0, host: '127.0.0.1' })
  const registered = await idApp.inject({
    method: 'POST',
    url: '/api/security/tenants',
    headers: await headersOf(service('platform', { tenant_id: '', workspace_id: '' })),
    payload: {
      id: 'acme',
      workspaces: [{ id: 'support' }, { id: 'sales' }, { id: 'closed', settings: { widget_enabled: false } }],
    },
  })
  if (registered.statusCode !== 201) throw new Error(`identity: ${registered.body}`)

  const hubs = []
  for (let i = 0; i < (opts.replicas ?? 1); i++) {
    // each replica its own database (its voice tables), all of them on conversations' bus and cache
    const hubStore = await storageFixture(t, mode, `rvh${i}`)
    const app = await realtimeVoice.build(
      {
        ...loadConfig({
          INTERNAL_SECRET,
          LOG_LEVEL: 'silent',
          DB_DRIVER: db,
          UPSTREAM_CONVERSATIONS: conversationsUrl,
          UPSTREAM_IDENTITY: identityUrl,
          HUB_STATS_INTERVAL_MS: '100',
          ...opts.env,
        }),
        port: 0,
        database: hubStore.database,
        cache: store.cache,
        bus: store.bus,
      },
      deps,
    )
    t.teardown(() => app.close())
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    await app.whenStarted() // the hub subscribed to conversations' events and its signals
    hubs.push({ app, url, svc: realtimeVoice.contextOf(app) })
  }
  const conv = conversations.contextOf(convApp)
  return {
    hubs,
    hub: hubs[0]!,
    conversations: { app: convApp, svc: conv },
    identity: { app: idApp },
    /** calls conversations' HTTP API as `p` (what an agent's browser or the admin would do through the gateway) */
    async call(p: Principal, method: 'GET' | 'POST', url: string, payload?: object) {
      const res = await convApp.inject({ method, url, headers: await headersOf(p), ...(payload ? { payload } : {}) })
      return { status: res.statusCode, body: res.body ? res.json() : undefined }
    },
    seedAgent: (user_id: string, scope = { tenant_id: 'acme', workspace_id: 'support' }) =>
      seedAgent(conv, user_id, scope),
  }
}

export type HubFixture = Awaited<ReturnType<typeof hubFixture>>

/** An agent straight into conversations' projection (its consumer of identity's events is tested there). */
async function seedAgent(
  svc: ConversationsService,
  user_id: string,
  scope: { tenant_id: string; workspace_id: string },
) {
  await svc.db
    .insertInto('agents')
    .values({
      agent_id: `ag-${user_id}-${scope.tenant_id}-${scope.workspace_id}`,
      user_id,
      ...scope,
      name: `Agent ${user_id}`,
      department: '',
      skills: toJson([]) ?? '[]',
      max_concurrent: 5,
      status: 'online',
      rating: 5,
      avg_response_time: 0,
      updated_at: nowIso(),
    })
    .execute()
}
