import type { ConfigGovernanceService } from '../context.ts'
import type { StoredIntegration } from '../db/integrations.repository.ts'
import { checkAppUrl } from '../domain/integration-fields.ts'
import { configProblem, schemaProblem } from '../domain/integration-schema.ts'
import { resealStale, settleSettings, shownConfig } from '../domain/integration-settings.ts'
import { ConfigErrors } from '../errors.ts'
import type { UpdateIntegrationBody } from '../schemas/integration.schemas.ts'

/** How a write's `config` meets the stored settings: replaces them whole (POST, PUT) or key by key (PATCH). */
export type ConfigMode = 'replace' | 'merge'

const invalid = (field: string, message: string) => new ConfigErrors.IntegrationInvalid(field, message)

function url(svc: ConfigGovernanceService, field: string, raw: string): string {
  // http on a loopback host only where the unit runs in development (SERVER_ENVIRONMENT, default development)
  const checked = checkAppUrl(raw, svc.config.environment === 'development')
  if ('refused' in checked) throw invalid(field, checked.refused)
  return checked.url
}

function text(field: string, value: string, required = false): string {
  const trimmed = value.trim()
  if (required && !trimmed) throw invalid(field, 'must not be blank')
  return trimmed
}

/**
 * `current` with the body's fields applied, every rule the route's schema cannot express checked: URLs, the settings'
 * schema and the settings against it (secrets sealed). Throws the 400/409 that names the field. Pure but for sealing.
 */
export function applyBody(
  svc: ConfigGovernanceService,
  current: StoredIntegration,
  body: UpdateIntegrationBody,
  mode: ConfigMode,
): StoredIntegration {
  const next: StoredIntegration = { ...current }
  if (body.name !== undefined) next.name = text('name', body.name, true)
  if (body.slug !== undefined) next.slug = body.slug
  if (body.vendor !== undefined) next.vendor = text('vendor', body.vendor)
  if (body.category !== undefined) next.category = text('category', body.category)
  if (body.summary !== undefined) next.summary = text('summary', body.summary)
  if (body.icon_url !== undefined) next.icon_url = body.icon_url === null ? null : url(svc, 'icon_url', body.icon_url)
  if (body.iframe_url !== undefined) next.iframe_url = url(svc, 'iframe_url', body.iframe_url)
  if (body.capabilities !== undefined) next.capabilities = body.capabilities
  if (body.enabled !== undefined) next.enabled = body.enabled
  if (body.last_sync_status !== undefined) next.last_sync_status = body.last_sync_status
  if (body.config_schema !== undefined) {
    const problem = schemaProblem(body.config_schema)
    if (problem) throw invalid(problem.path, problem.message)
    next.config_schema = body.config_schema
  }

  // settings and their schema untouched: nothing to check again (a secret no longer readable does not block a rename)
  if (body.config === undefined && body.config_schema === undefined) {
    next.settings = resealStale(svc.box, current.settings)
    return next
  }
  // every setting the integration is to have: what it has (secrets as "[REDACTED]": kept), with the body's
  const shown = shownConfig(current.settings)
  const wanted = body.config === undefined ? shown : mode === 'merge' ? { ...shown, ...body.config } : body.config
  const settled = settleSettings(svc.box, next.config_schema, current.settings, wanted)
  if ('notStored' in settled) throw new ConfigErrors.IntegrationSecretNotStored(settled.notStored)
  if ('unreadable' in settled) throw new ConfigErrors.IntegrationSecretUnreadable(settled.unreadable)
  const problem = configProblem(next.config_schema, settled.plain)
  if (problem) throw invalid(problem.path, problem.message)
  next.settings = settled.stored
  return next
}
