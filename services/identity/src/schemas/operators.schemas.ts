import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '@switchboard/contracts'
import { ROLES } from '../db/users.repository.ts'
import { UserView } from './auth.schemas.ts'

const Reason = Type.String({ maxLength: 500 })
const PlatformAdmin = Type.Boolean({
  description: 'role admin only: platform-wide (every tenant) rather than the request tenant; platform callers only',
})

export const OperatorRole = Type.Union([
  Type.Literal(ROLES.admin),
  Type.Literal(ROLES.supervisor),
  Type.Literal(ROLES.agent),
])

/** POST /api/security/users: an operator account in the request's workspace (selectors for unscoped callers). */
export const CreateOperatorBody = Type.Object(
  {
    // No '@' in usernames, so login can tell a username from an email (as at registration).
    username: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$' }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    name: Type.Optional(Type.String({ maxLength: 128 })),
    role: OperatorRole,
    /** without one, the answer carries a one-time set-password token */
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 1024 })),
    platform_admin: Type.Optional(PlatformAdmin),
  },
  { additionalProperties: false },
)
export type CreateOperatorBody = Static<typeof CreateOperatorBody>

export const SetPasswordLink = Type.Object({
  token: Type.String({ description: 'shown once; only its hash is stored' }),
  expires_at: Type.String(),
  path: Type.String({ description: 'where to redeem it: POST {token, password}' }),
})

export const OperatorCreated = Type.Object({
  user: Type.Composite([UserView, Type.Object({ admin_tenant_id: Type.String() })]),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  agent_id: Nullable(Type.String()),
  set_password: Nullable(SetPasswordLink),
})

/** PUT /api/security/users/:id/role */
export const RoleBody = Type.Object(
  {
    role: Type.Union([...OperatorRole.anyOf, Type.Literal(ROLES.customer)]),
    platform_admin: Type.Optional(PlatformAdmin),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
)
export type RoleBody = Static<typeof RoleBody>

/** A user's grant and token state after a role change. */
export const OperatorState = Type.Object({
  user_id: Type.String(),
  username: Type.String(),
  role: Type.String(),
  admin_tenant_id: Type.String({ description: "for role admin: '' platform-wide, else the tenant administered" }),
  status: Type.String(),
  token_version: Type.Integer(),
  token_valid_after: Nullable(Type.String()),
})

/** POST /api/v1/auth/set-password (anonymous) */
export const SetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  },
  { additionalProperties: false },
)
export type SetPasswordBody = Static<typeof SetPasswordBody>

export const SetPasswordResult = Type.Object({ user_id: Type.String(), username: Type.String() })
