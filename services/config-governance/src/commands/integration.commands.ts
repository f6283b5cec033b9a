import { isDeepStrictEqual } from 'node:util'
import { IntegrationEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { ConfigGovernanceService } from '../context.ts'
import {
  deleteIntegration,
  findIntegrationForUpdate,
  insertIntegration,
  type StoredIntegration,
  slugTaken,
  writeIntegration,
} from '../db/integrations.repository.ts'
import { slugFrom } from '../domain/integration-fields.ts'
import { NO_SETTINGS } from '../domain/integration-settings.ts'
import { ConfigErrors } from '../errors.ts'
import { changedFields, integrationFacts, integrationView } from '../queries/integration.view.ts'
import type { AppIntegration, CreateIntegrationBody, UpdateIntegrationBody } from '../schemas/integration.schemas.ts'
import { applyBody, type ConfigMode } from './integration-body.ts'

/** What a write answers, and what its audit record keeps (views: secrets redacted). */
export interface IntegrationChange {
  before?: AppIntegration
  after?: AppIntegration
  /** the settings that are or were secret: the audit record redacts them in the request body */
  secretKeys: Set<string>
}

const scopeOfRecord = (i: { tenant_id: string; workspace_id: string }) => ({
  tenant_id: i.tenant_id,
  workspace_id: i.workspace_id,
})

const secretKeysOf = (...records: Array<StoredIntegration | undefined>) =>
  new Set(records.flatMap((r) => Object.keys(r?.settings.secrets ?? {})))

/**
 * POST: a new integration of the caller's workspace (an unscoped administrator names one: 400 otherwise). The slug
 * is the name's when not given, unique in the workspace (409).
 */
export function createIntegration(
  svc: ConfigGovernanceService,
  caller: Caller,
  body: CreateIntegrationBody,
): Promise<IntegrationChange & { after: AppIntegration }> {
  const scope = concreteScope(caller)
  const now = nowIso()
  const blank: StoredIntegration = {
    id: newId(),
    ...scope,
    name: '',
    slug: '',
    vendor: '',
    category: '',
    summary: '',
    icon_url: null,
    iframe_url: '',
    capabilities: [],
    config_schema: {},
    settings: NO_SETTINGS,
    enabled: true,
    last_sync_status: null,
    version: 1,
    created_at: now,
    updated_at: now,
  }
  const integration = applyBody(svc, blank, body, 'replace')
  integration.slug ||= slugFrom(integration.name)
  if (!integration.slug) {
    throw new ConfigErrors.IntegrationInvalid('slug', 'is required when the name has no letters or digits')
  }
  return svc.transaction(caller, async (tx) => {
    if (await slugTaken(tx.db, scope, integration.slug, integration.id)) {
      throw new ConfigErrors.IntegrationSlugTaken(integration.slug)
    }
    await insertIntegration(tx.db, integration, caller.actor.user_id)
    const after = integrationView(svc.box, integration)
    await tx.emit(IntegrationEvents.created, { integration: integrationFacts(after) }, scope)
    return { after, secretKeys: secretKeysOf(integration) }
  })
}

/**
 * PUT and PATCH: the fields sent replace the stored ones; `config` replaces the settings whole (`replace`, PUT) or
 * key by key, null removing one (`merge`, PATCH). A write that changes nothing stores and announces nothing.
 */
export function updateIntegration(
  svc: ConfigGovernanceService,
  caller: Caller,
  id: string,
  body: UpdateIntegrationBody,
  mode: ConfigMode,
): Promise<IntegrationChange & { after: AppIntegration }> {
  return svc.transaction(caller, async (tx) => {
    const current = await findIntegrationForUpdate(tx, id, caller.scope)
    if (!current) throw new ConfigErrors.IntegrationNotFound(id)
    const next = applyBody(svc, current, body, mode)
    const before = integrationView(svc.box, current)
    const changed = changedFields(before, integrationView(svc.box, next))
    // a secret sent anew (even the same one) or resealed after a key rotation: stored, though no reader sees it move
    const resealed = !isDeepStrictEqual(next.settings.secrets, current.settings.secrets)
    if (changed.length === 0 && !resealed) return { before, after: before, secretKeys: secretKeysOf(current) }
    if (next.slug !== current.slug && (await slugTaken(tx.db, scopeOfRecord(current), next.slug, id))) {
      throw new ConfigErrors.IntegrationSlugTaken(next.slug)
    }
    const stored = { ...next, version: current.version + 1, updated_at: nowIso() }
    await writeIntegration(tx.db, stored, caller.actor.user_id)
    const after = integrationView(svc.box, stored)
    if (changed.length > 0) {
      await tx.emit(IntegrationEvents.updated, { integration: integrationFacts(after), changed }, scopeOfRecord(stored))
    }
    return { before, after, secretKeys: secretKeysOf(current, stored) }
  })
}

/** DELETE: the integration and its sealed secrets are gone; `config.integration.deleted` says so. */
export function removeIntegration(
  svc: ConfigGovernanceService,
  caller: Caller,
  id: string,
): Promise<IntegrationChange> {
  return svc.transaction(caller, async (tx) => {
    const current = await findIntegrationForUpdate(tx, id, caller.scope)
    if (!current) throw new ConfigErrors.IntegrationNotFound(id)
    await deleteIntegration(tx.db, id)
    const { tenant_id, workspace_id, slug } = current
    await tx.emit(
      IntegrationEvents.deleted,
      { id, tenant_id, workspace_id, slug, deleted_at: nowIso() },
      scopeOfRecord(current),
    )
    return { before: integrationView(svc.box, current), secretKeys: secretKeysOf(current) }
  })
}
