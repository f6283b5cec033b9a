import { type Static, Type } from '@sinclair/typebox'
import { PageQuery, Paginated, ScopeSettings } from '@switchboard/contracts'
import { SCOPE_ID_PATTERN, SCOPE_STATUS } from '../domain/scope-registry.ts'

/** A new tenant's or workspace's id: a lower-case slug (2 to 63 characters). */
const ScopeId = Type.String({ pattern: SCOPE_ID_PATTERN, description: 'a lower-case slug, 2 to 63 characters' })
/** Looked-up ids are any string: an id that could never exist is simply not found. */
const AnyId = Type.String({ minLength: 1, maxLength: 128 })
const Name = Type.String({ minLength: 1, maxLength: 200 })

export const ScopeStatusSchema = Type.Union([Type.Literal(SCOPE_STATUS.active), Type.Literal(SCOPE_STATUS.disabled)])

/** Settings given on create or update: the keys named change, the others keep their value (or the default). */
export const SettingsPatch = Type.Partial(ScopeSettings, { additionalProperties: false })
export type SettingsPatch = Static<typeof SettingsPatch>

export const TenantSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: ScopeStatusSchema,
  settings: ScopeSettings,
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  name: Type.String(),
  status: ScopeStatusSchema,
  settings: ScopeSettings,
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const CreateWorkspaceBody = Type.Object(
  { id: ScopeId, name: Type.Optional(Name), settings: Type.Optional(SettingsPatch) },
  { additionalProperties: false },
)
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>

/** POST /api/security/tenants: the tenant, and optionally its first workspaces, in one unit of work. */
export const CreateTenantBody = Type.Object(
  {
    id: ScopeId,
    name: Type.Optional(Name),
    settings: Type.Optional(SettingsPatch),
    workspaces: Type.Optional(Type.Array(CreateWorkspaceBody, { maxItems: 50 })),
  },
  { additionalProperties: false },
)
export type CreateTenantBody = Static<typeof CreateTenantBody>

export const TenantCreated = Type.Composite([TenantSchema, Type.Object({ workspaces: Type.Array(WorkspaceSchema) })])

/** PUT: name and settings; status changes only through /disable and /enable, which announce them. */
export const UpdateScopeBody = Type.Object(
  { name: Type.Optional(Name), settings: Type.Optional(SettingsPatch) },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateScopeBody = Static<typeof UpdateScopeBody>

export const TenantParams = Type.Object({ tenant_id: AnyId })
export const WorkspaceParams = Type.Object({ tenant_id: AnyId, workspace_id: AnyId })

export const RegistryListQuery = Type.Composite([PageQuery, Type.Object({ status: Type.Optional(ScopeStatusSchema) })])
export const TenantPage = Paginated(TenantSchema)
export const WorkspacePage = Paginated(WorkspaceSchema)
