import type { Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { type EffectiveField, EffectiveSections, effectiveOf, systemOrDefault } from '@switchboard/contracts'
import { type Caller, isPlainObject } from '@switchboard/platform'
import { PortalSettings } from '../config.ts'
import type { ConfigGovernanceService } from '../context.ts'
import { findScopeLayers, type ScopeKey } from '../db/scoped-configs.repository.ts'
import type { EffectiveSection, EffectiveView, UnavailableSection } from '../schemas/effective.schemas.ts'

/** The portal's code defaults (the config schema's), the lowest layer. */
const PORTAL_DEFAULTS = Value.Default(PortalSettings, {}) as PortalSettings

/** The portal's leaf paths; arrays (locales, allowed origins) are values, replaced whole. */
const PORTAL_PATHS = [
  'brand_name',
  'logo_url',
  'primary_color',
  'secondary_color',
  'default_locale',
  'locales',
  'support_email',
  'widget.allowed_origins',
  'widget.prechat',
  'widget.greeting',
  'widget.offline_message',
] as const

const at = (doc: unknown, path: string): unknown => {
  let node = doc
  for (const key of path.split('.')) node = isPlainObject(node) ? node[key] : undefined
  return node
}

/**
 * The portal of a scope field by field: runtime (PORTAL_RUNTIME_JSON) > workspace > tenant > system (PORTAL_*) >
 * code default, from this service's own rows — the same layers `/public/portal/config` resolves, without its memory.
 */
export async function portalFields(svc: ConfigGovernanceService, key: ScopeKey): Promise<EffectiveField[]> {
  const layers = await findScopeLayers(svc.db, key.tenant_id, key.workspace_id)
  return PORTAL_PATHS.map((p) =>
    effectiveOf(`portal.${p}`, [
      { source: 'runtime', value: at(svc.config.portal_runtime, p) },
      { source: 'workspace', value: at(layers.workspace.portal, p) },
      { source: 'tenant', value: at(layers.tenant.portal, p) },
      ...systemOrDefault(at(svc.config.portal, p), at(PORTAL_DEFAULTS, p)),
    ]),
  )
}

/** Who owns the system layer of the other sections (README "Applied live"). */
const OWNERS = [
  { service: 'ai-orchestrator', sections: ['llm', 'knowledge_provider'] },
  { service: 'identity', sections: ['session_risk'] },
] as const satisfies readonly { service: keyof ConfigGovernanceService['owners']; sections: EffectiveSection[] }[]

type Unavailable = Static<typeof UnavailableSection>
type Answer = { fields: EffectiveField[]; unavailable: Unavailable[] }

/** One owner's fields for the scope, or why there are none (not connected, refused, did not answer). */
async function askOwner(svc: ConfigGovernanceService, caller: Caller, owner: (typeof OWNERS)[number], key: ScopeKey) {
  const down = (code: string, message: string): Answer => ({
    fields: [],
    unavailable: owner.sections.map((section) => ({ section, service: owner.service, code, message })),
  })
  const client = svc.owners[owner.service]
  if (!client) {
    const env = `UPSTREAM_${owner.service.toUpperCase().replaceAll('-', '_')}`
    return down('CONFIG_OWNER_NOT_CONNECTED', `${env} is not set: ${owner.service} cannot be asked`)
  }
  const q = new URLSearchParams({ tenant_id: key.tenant_id, workspace_id: key.workspace_id })
  try {
    const reply = await client.call<EffectiveSections>('GET', `/internal/config/effective?${q}`, undefined, {
      ...(caller.request_id ? { request_id: caller.request_id } : {}),
    })
    if (reply.status !== 200) return down('CONFIG_OWNER_REFUSED', `${owner.service} answered ${reply.status}`)
    if (!Value.Check(EffectiveSections, reply.body))
      return down('CONFIG_OWNER_REFUSED', `${owner.service} answered something else than its effective fields`)
    // only its own sections, and a key's value never, whatever an owner sends
    const fields = reply.body.fields
      .filter((f) => owner.sections.some((s) => f.path.startsWith(`${s}.`)))
      .map((f) => (f.secret ? { ...f, value: null } : f))
    return { fields, unavailable: [] }
  } catch (err) {
    svc.log.warn({ err, service: owner.service }, 'effective configuration: an owning service did not answer')
    return down((err as { code?: string }).code ?? 'DEPENDENCY_UNAVAILABLE', (err as Error).message)
  }
}

/**
 * The effective configuration of the caller's scope, every section with the source of each field: the portal from
 * this service's rows, the others from the services that apply them (they hold the system layers and know what
 * they run on). Asked at once; a section whose owner does not answer is listed in `unavailable`, not guessed.
 */
export async function effectiveView(
  svc: ConfigGovernanceService,
  caller: Caller,
  key: ScopeKey,
): Promise<Static<typeof EffectiveView>> {
  const [portal, ...owned] = await Promise.all([
    portalFields(svc, key),
    ...OWNERS.map((o) => askOwner(svc, caller, o, key)),
  ])
  const order = (f: EffectiveField) =>
    ['portal', 'llm', 'knowledge_provider', 'session_risk'].indexOf(f.path.split('.')[0]!)
  const fields = [...portal, ...owned.flatMap((o) => o.fields)].sort((a, b) => order(a) - order(b))
  return {
    tenant_id: key.tenant_id,
    ...(key.workspace_id ? { workspace_id: key.workspace_id } : {}),
    fields,
    unavailable: owned.flatMap((o) => o.unavailable),
  }
}
