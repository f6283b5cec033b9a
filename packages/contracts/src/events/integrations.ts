import { Type } from '@sinclair/typebox'

/**
 * An app integration of a workspace (config-governance, `/api/apps/integrations`) as other services may learn it.
 * Secrets never travel: each secret setting is `"[REDACTED]"` in `config` and only its fingerprint
 * (`sha256:<12 hex>`, an HMAC under the fleet's configuration key) is in `secret_fingerprints`, which tells that a key
 * changed without showing it. No sealed copy either: no service acts with an integration's credentials today.
 */
const IntegrationFacts = Type.Object({
  id: Type.String(),
  tenant_id: Type.String({ minLength: 1 }),
  workspace_id: Type.String({ minLength: 1 }),
  name: Type.String(),
  slug: Type.String(),
  vendor: Type.String(),
  category: Type.String(),
  iframe_url: Type.String(),
  enabled: Type.Boolean(),
  capabilities: Type.Array(Type.String()),
  config: Type.Record(Type.String(), Type.Unknown()),
  secret_fingerprints: Type.Record(Type.String(), Type.String()),
  /** +1 on every change of the record: a consumer keeps the highest it saw and ignores older deliveries */
  version: Type.Integer({ minimum: 1 }),
  updated_at: Type.String(),
})

export const IntegrationEvents = {
  created: { type: 'config.integration.created', data: Type.Object({ integration: IntegrationFacts }) },
  /** `changed`: the wire fields whose value moved (`config` when any setting did, a secret's included) */
  updated: {
    type: 'config.integration.updated',
    data: Type.Object({ integration: IntegrationFacts, changed: Type.Array(Type.String()) }),
  },
  deleted: {
    type: 'config.integration.deleted',
    data: Type.Object({
      id: Type.String(),
      tenant_id: Type.String({ minLength: 1 }),
      workspace_id: Type.String({ minLength: 1 }),
      slug: Type.String(),
      deleted_at: Type.String(),
    }),
  },
} as const
