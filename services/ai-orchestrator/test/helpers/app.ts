import { Value } from '@sinclair/typebox/value'
import type { EventDef, Principal } from '@switchboard/contracts'
import { appliedOf, newEnvelope } from '@switchboard/events'
import type { Logger, Scope } from '@switchboard/platform'
import {
  ACME_ADMIN,
  principalHeader,
  type StorageMode,
  serviceApp,
  silentLogger,
  TEST_INTERNAL_SECRET,
  testPrincipal,
  waitFor,
} from '@switchboard/testing'
import type { Test } from 'tap'
import { aiOrchestrator } from '../../src/build.ts'
import type { AiConfig } from '../../src/config.ts'
import type { AiService } from '../../src/context.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

export const ACME: Scope = { tenant_id: 'acme', workspace_id: 'support' }
export const GLOBEX: Scope = { tenant_id: 'globex', workspace_id: 'main' }

/** An agent of a scope holding the knowledge and assist permissions (the gateway checks them; here: who, where). */
export const agent = (scope: Scope = ACME, overrides: Partial<Principal> = {}) =>
  testPrincipal(
    {
      user_id: `agent-${scope.tenant_id}`,
      kind: 'agent',
      roles: ['agent'],
      permissions: ['knowledge.read', 'knowledge.write', 'assist.read'],
      ...scope,
      ...overrides,
    },
    ACME_ADMIN,
  )

/** A platform administrator without a scope. */
export const platformAdmin = () => testPrincipal({ user_id: 'root', tenant_id: '', workspace_id: '' }, ACME_ADMIN)

export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/**
 * An ai-orchestrator app on isolated storage, closed and cleaned up when the test ends. `env` as the environment
 * would set it; `overrides` replace parts of the loaded config (a stand-in provider's settings, say); `logger` to
 * read what it logs (silent by default).
 */
export function aiApp(
  t: Test,
  mode: StorageMode,
  env: Record<string, string> = {},
  overrides: Partial<AiConfig> = {},
  logger: Logger = silentLogger(),
) {
  return serviceApp(t, aiOrchestrator, mode, { label: 'ai', env, config: overrides, logger })
}

export type AiApp = Awaited<ReturnType<typeof aiApp>>['app']

/** A JSON request as `who` (none: anonymous). */
export async function call(app: AiApp, who: Principal | null, method: string, url: string, payload?: object) {
  const headers = who ? await as(who) : {}
  return app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })
}

/** An event as its owner would publish it, checked against its contract; `occurred_at` may be set. */
export async function publish<D extends EventDef>(
  svc: AiService,
  def: D,
  data: unknown,
  scope: Scope = ACME,
  occurred_at?: string,
) {
  if (!Value.Check(def.data, data)) {
    throw new Error(`test payload does not match ${def.type}: ${Value.Errors(def.data, data).First()?.path}`)
  }
  const envelope = newEnvelope({ type: def.type, ...scope, actor: { user_id: 'admin-1', kind: 'admin' }, data })
  if (occurred_at) envelope.occurred_at = occurred_at
  await svc.bus.publish(def.type, envelope)
  return envelope
}

/** Resolves once `consumer` has applied the event (its inbox row). */
export async function applied(svc: AiService, consumer: string, eventId: string) {
  await waitFor(async () => (await appliedOf(svc.db, consumer, [eventId])).has(eventId))
}
