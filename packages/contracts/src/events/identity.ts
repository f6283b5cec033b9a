import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

/**
 * Token state the gateway needs to accept or refuse a token without a database query.
 * `seq` rises on every change of the user's token state, so a replica keeps the newest snapshot.
 */
export const UserTokenState = Type.Object({
  user_id: Type.String(),
  active: Type.Boolean(),
  token_version: Type.Integer(),
  token_valid_after: Nullable(Type.String()),
  seq: Type.Integer(),
})
export type UserTokenState = Static<typeof UserTokenState>

export const SessionTokenState = Type.Object({
  session_id: Type.String(),
  user_id: Type.String(),
  active: Type.Boolean(),
  token_version: Type.Integer(),
})
export type SessionTokenState = Static<typeof SessionTokenState>

export const DeniedToken = Type.Object({
  jti: Type.String(),
  user_id: Type.String(),
  session_id: Type.String(),
  token_use: Type.String(),
  expires_at: Type.String(),
})
export type DeniedToken = Static<typeof DeniedToken>

/**
 * A tenant (`workspace_id` '') or one of its workspaces became active or disabled. Tokens scoped to a disabled
 * tenant or workspace are refused at the gateway, like a deactivated user's.
 */
export const ScopeStatus = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.String({ description: "'' for the whole tenant" }),
  active: Type.Boolean(),
})
export type ScopeStatus = Static<typeof ScopeStatus>

/** What identity answers the gateway on `GET /internal/token-state/scopes`: every disabled tenant and workspace. */
export const DisabledScopesResponse = Type.Object({ items: Type.Array(ScopeStatus) })
export type DisabledScopesResponse = Static<typeof DisabledScopesResponse>

/** A tenant's or workspace's settings; a workspace's effective value is its own and its tenant's together. */
export const ScopeSettings = Type.Object({
  /** anonymous self-registration of customers into the scope */
  public_registration: Type.Boolean(),
  /** the customer widget may open conversations in the scope */
  widget_enabled: Type.Boolean(),
})
export type ScopeSettings = Static<typeof ScopeSettings>

/** A tenant of the registry, as its events carry it. */
export const TenantFacts = Type.Object({
  tenant_id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  settings: ScopeSettings,
})
export type TenantFacts = Static<typeof TenantFacts>

/** A workspace of a tenant, as its events carry it. */
export const WorkspaceFacts = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  settings: ScopeSettings,
})
export type WorkspaceFacts = Static<typeof WorkspaceFacts>

export const IdentityEvents = {
  /** user token_version / token_valid_after / active changed (revoke-tokens, deactivation, role change) */
  userTokenState: {
    type: 'identity.user.token_state_changed',
    data: Type.Object({ user: UserTokenState, reason: Type.String() }),
  },
  /** an auth session was created, refreshed (token_version raised) or revoked */
  sessionTokenState: {
    type: 'identity.session.token_state_changed',
    data: Type.Object({ session: SessionTokenState, reason: Type.String() }),
  },
  /** a tenant or workspace was enabled or disabled (the gateway's token acceptance follows it) */
  scopeStatus: { type: 'identity.scope.status_changed', data: ScopeStatus },
  /** a tenant was created or changed (name, status, settings); the registry's record, whole */
  tenantUpserted: { type: 'identity.tenant.upserted', data: TenantFacts },
  /** a workspace was created or changed (name, status, settings); the registry's record, whole */
  workspaceUpserted: { type: 'identity.workspace.upserted', data: WorkspaceFacts },
  /** a jti was put on the denylist */
  tokenDenied: { type: 'identity.token.denylisted', data: DeniedToken },
  userRegistered: {
    type: 'identity.user.registered',
    data: Type.Object({ user_id: Type.String(), username: Type.String(), role: Type.String(), name: Type.String() }),
  },
  userRoleChanged: {
    type: 'identity.user.role_changed',
    data: Type.Object({
      user_id: Type.String(),
      role: Type.String(),
      /** admins only: '' platform-wide, else the one tenant they administer (absent for other roles) */
      admin_tenant_id: Type.Optional(Type.String()),
    }),
  },
  agentUpserted: {
    type: 'identity.agent.upserted',
    data: Type.Object({
      agent_id: Type.String(),
      user_id: Type.String(),
      name: Type.String(),
      department: Type.String(),
      skills: Type.Array(Type.String()),
      max_concurrent: Type.Integer(),
      status: Type.String(),
      rating: Type.Number(),
      avg_response_time: Type.Number(),
    }),
  },
  agentStatusChanged: {
    type: 'identity.agent.status_changed',
    data: Type.Object({
      agent_id: Type.String(),
      user_id: Type.String(),
      status: Type.String(),
      previous: Type.String(),
    }),
  },
  customerUpserted: {
    type: 'identity.customer.upserted',
    data: Type.Object({
      customer_id: Type.String(),
      user_id: Type.String(),
      name: Type.String(),
      source: Type.String(),
      tags: Type.Array(Type.String()),
      /** the customer tier SLA configs match on: low | normal | high | urgent (absent on older events) */
      priority: Type.Optional(Type.String()),
    }),
  },
} as const
