import { ConfigEvents } from '@switchboard/contracts'
import { configEncryptionKeys, createSecretBox } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { AiConfig } from '../../src/config.ts'
import { ACME, agent, aiApp, call, GLOBEX, INTERNAL_SECRET, publish } from '../helpers/app.ts'
import { startPrimaryStandIn } from '../helpers/stand-ins.ts'

const SYSTEM_DOC = { title: 'Refund policy', content: 'Refunds are paid within 14 days.' }
const ACME_DOC = { title: 'Acme refunds', content: 'Acme refunds are paid within 3 days.' }

/** config-governance's event for a workspace, the key sealed as it seals it (the fleet's configuration key). */
function changed(
  version: number,
  knowledge_provider: Record<string, unknown> | null,
  sealedKey?: string,
  scope = ACME,
) {
  const box = createSecretBox(configEncryptionKeys({}, INTERNAL_SECRET).current)
  return {
    scope: 'workspace' as const,
    ...scope,
    version,
    change_id: `change-${version}`,
    operation: 'update' as const,
    changed_sections: ['knowledge_provider'],
    config: knowledge_provider ? { knowledge_provider } : {},
    secret_fingerprints: {},
    sealed_secrets: sealedKey ? { 'knowledge_provider.primary.api_key': box.seal(sealedKey) } : {},
    changed_at: new Date().toISOString(),
  }
}

inEachStorageMode(
  t,
  "a workspace's own provider, from config.scope.changed, within the cache window",
  async (t, mode) => {
    const system = await startPrimaryStandIn({ docs: [SYSTEM_DOC] })
    const own = await startPrimaryStandIn({ docs: [ACME_DOC], apiKey: 'acme-secret-key', datasetId: 'acme-ds' })
    t.teardown(() => Promise.all([system.close(), own.close()]))
    const overrides: Partial<AiConfig> = { primary: system.settings({ timeout_ms: 1000 }), scoped_settings_cache_ms: 0 }
    // the stand-ins are on loopback: governed endpoints reach them only as the operator allows
    const { app, svc } = await aiApp(t, mode, { AI_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }, overrides)
    const ask = async (scope = ACME) =>
      (await call(app, agent(scope), 'POST', '/api/v1/ai/query', { query: 'when are refunds paid' })).json()

    t.match(await ask(), { strategy: 'fallback', sources: [{ title: 'Refund policy' }] }, 'before: the system provider')
    const s = own.settings()
    const section = {
      primary: {
        enabled: true,
        base_url: s.base_url,
        api_key: '[REDACTED]',
        dataset_id: 'acme-ds',
        search: { top_k: 3 },
      },
    }
    /** the projection at `version` (the consumer is idempotent by version: no inbox row to wait for) */
    const stored = (version: number) =>
      waitFor(() =>
        svc.db
          .selectFrom('ai_scoped_settings')
          .select('version')
          .where('tenant_id', '=', ACME.tenant_id)
          .where('workspace_id', '=', ACME.workspace_id)
          .where('version', '=', version)
          .executeTakeFirst(),
      )
    await publish(svc, ConfigEvents.scopeChanged, changed(1, section, 'acme-secret-key'), ACME)
    await stored(1)
    const after = await ask()
    t.match(after, { source: 'primary', sources: [{ title: 'Acme refunds' }] }, "the workspace's own provider answers")
    t.ok(
      own.requests.some((r) => r.headers.authorization === 'Bearer acme-secret-key'),
      'with the key it stored, opened',
    )
    t.ok(
      own.requests.some((r) => r.path.includes('/datasets/acme-ds/')),
      'and its own dataset',
    )
    t.match(await ask(GLOBEX), { sources: [{ title: 'Refund policy' }] }, 'another tenant keeps the system provider')

    // a new endpoint without a key of its own is sent no key — never the system's
    const keyless = { primary: { enabled: true, base_url: s.base_url, dataset_id: 'acme-ds' } }
    await publish(svc, ConfigEvents.scopeChanged, changed(5, keyless, undefined, GLOBEX), GLOBEX)
    await waitFor(() =>
      svc.db
        .selectFrom('ai_scoped_settings')
        .select('version')
        .where('tenant_id', '=', GLOBEX.tenant_id)
        .executeTakeFirst(),
    )
    const before = own.requests.length
    await ask(GLOBEX)
    const sent = own.requests.slice(before).map((r) => r.headers.authorization)
    t.ok(sent.length > 0, 'the keyless override is called')
    t.notOk(sent.includes(`Bearer ${system.apiKey}`), "the system's key never goes to a scope's endpoint")
    const status = (await call(app, agent(), 'GET', '/api/v1/ai/status')).json()
    t.match(status.providers[0].breaker.name, /^primary@[0-9a-f]{10}$/, 'its own breaker, named after its endpoint')

    await publish(svc, ConfigEvents.scopeChanged, changed(2, null), ACME)
    await stored(2)
    await publish(svc, ConfigEvents.scopeChanged, changed(1, section, 'acme-secret-key'), ACME)
    await new Promise((r) => setTimeout(r, 300))
    t.ok(await stored(2), 'a late older version changes nothing')
    t.match(
      await ask(),
      { sources: [{ title: 'Refund policy' }] },
      'the override removed (version 2): the system provider again',
    )
  },
)
