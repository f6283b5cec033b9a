import { isDeepStrictEqual } from 'node:util'
import { REDACTED, type SecretBox } from '@switchboard/platform'
import type { StoredIntegration } from '../db/integrations.repository.ts'
import { secretFingerprints, shownConfig } from '../domain/integration-settings.ts'
import type { AppIntegration } from '../schemas/integration.schemas.ts'

/** What every reader sees of an integration (responses, audit snapshots, events): secrets redacted, fingerprinted. */
export function integrationView(box: SecretBox, i: StoredIntegration): AppIntegration {
  const { settings, ...fields } = i
  return { ...fields, config: shownConfig(settings), secrets: secretFingerprints(box, settings) }
}

/** The payload of config.integration.created|updated: the view, without what only the record itself needs. */
export function integrationFacts(view: AppIntegration) {
  const {
    summary: _s,
    icon_url: _i,
    config_schema: _c,
    last_sync_status: _l,
    created_at: _at,
    secrets,
    ...facts
  } = view
  return { ...facts, secret_fingerprints: secrets }
}

const BOOKKEEPING = new Set(['version', 'updated_at', 'created_at', 'secrets'])

/** The wire fields whose value moved; `config` also when only a secret did (its fingerprint changed). */
export function changedFields(before: AppIntegration, after: AppIntegration): string[] {
  const changed = Object.keys(after).filter(
    (k) =>
      !BOOKKEEPING.has(k) && !isDeepStrictEqual(before[k as keyof AppIntegration], after[k as keyof AppIntegration]),
  )
  if (!changed.includes('config') && !isDeepStrictEqual(before.secrets, after.secrets)) changed.push('config')
  return changed.sort()
}

/**
 * The request body as the audit record keeps it: each setting in `config` that is or was a secret redacted; without
 * `secretKeys` (the request was refused before its integration was known) every setting is, since only the stored
 * schema could tell which are secret. Key-named secrets elsewhere are masked by the audit hook as always.
 */
export function auditedBody(body: unknown, secretKeys?: ReadonlySet<string>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('config' in body)) return body
  const { config, ...rest } = body as { config: unknown }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return { ...rest, config: REDACTED }
  const shown = Object.fromEntries(
    Object.entries(config).map(([k, v]) => [k, v === null || (secretKeys && !secretKeys.has(k)) ? v : REDACTED]),
  )
  return { ...rest, config: shown }
}
