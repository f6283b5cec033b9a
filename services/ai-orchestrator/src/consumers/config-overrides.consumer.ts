import { ConfigEvents } from '@switchboard/contracts'
import { type ConsumerDef, isPlainObject, nowIso, on } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { applyScopedSettings } from '../db/scoped-settings.repository.ts'

export const CONFIG_OVERRIDES_CONSUMER = 'ai-config-overrides'

/**
 * A tenant's or workspace's LLM and knowledge-provider overrides from config-governance (spec: scoped configuration;
 * issue 13 §2): each change keeps the scope's `llm` and `knowledge_provider` sections and their sealed keys in
 * `ai_scoped_settings` when its version is newer (idempotent by itself). Every replica resolves a scope's settings
 * through its short memory (runtime/scoped-runtime.ts), so a change is effective everywhere within a second.
 */
export const configOverrides: ConsumerDef<AiService> = {
  durable: CONFIG_OVERRIDES_CONSUMER,
  stream: 'CONFIG',
  subjects: [ConfigEvents.scopeChanged.type],
  idempotency: 'handler',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [
    on(ConfigEvents.scopeChanged, async ({ data }, svc) => {
      const workspace_id = data.scope === 'tenant' ? '' : data.workspace_id
      if (!data.tenant_id || (data.scope === 'workspace' && !workspace_id)) return
      const section = (name: string) => {
        const v = isPlainObject(data.config) ? data.config[name] : undefined
        return isPlainObject(v) ? v : null
      }
      await applyScopedSettings(svc.db, {
        tenant_id: data.tenant_id,
        workspace_id,
        llm: section('llm'),
        knowledge_provider: section('knowledge_provider'),
        sealed_secrets: data.sealed_secrets ?? {},
        version: data.version,
        updated_at: nowIso(),
      })
    }),
  ],
}
