import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, ErrorBody, Nullable } from '@switchboard/contracts'

const Slug = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' })

export const RegisterBody = Type.Object({
  // No '@' in usernames, so login can tell a username from an email.
  username: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$' }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 8, maxLength: 1024 }),
  name: Type.Optional(Type.String({ maxLength: 128 })),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  tenant_id: Type.Optional(Slug),
  workspace_id: Type.Optional(Slug),
})
export type RegisterBody = Static<typeof RegisterBody>

export const LoginBody = Type.Object({
  /** a username or an email */
  username: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  /** names one binding when the user has several */
  tenant_id: Type.Optional(Slug),
  workspace_id: Type.Optional(Slug),
})
export type LoginBody = Static<typeof LoginBody>

/** Also the logout body. Absent for a browser, whose refresh token is the cookie (docs/api.md §2 "Browser clients"). */
export const RefreshBody = Type.Object({ refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })) })
export type RefreshBody = Static<typeof RefreshBody>

export const UserView = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.String(),
  status: Type.String(),
})

export const MeView = Type.Composite([
  UserView,
  Type.Object({
    phone: Type.String(),
    last_login: Nullable(Type.String()),
    created_at: Type.String(),
    tenant_id: Type.String(),
    workspace_id: Type.String(),
    session_id: Type.String(),
  }),
])

export const TokenResponse = Type.Object({
  token: Type.String(),
  expires_in: Type.Integer(),
  /** absent in cookie mode: the browser's refresh token is the HttpOnly cookie */
  refresh_token: Type.Optional(Type.String()),
  refresh_expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
  user: UserView,
})
export type TokenResponse = Static<typeof TokenResponse>

/** The auth session view, the same on both sides; is_current only on the self-service side. */
export const SessionView = Type.Object({
  session_id: Type.String(),
  status: Type.String(),
  token_version: Type.Integer(),
  device_fingerprint: Type.String(),
  network_label: Type.String(),
  location_label: Type.String(),
  risk_score: Type.Integer(),
  risk_level: Type.String(),
  risk_reasons: Type.Array(Type.String()),
  family_public_ip_count: Type.Integer(),
  family_device_count: Type.Integer(),
  active_session_count: Type.Integer(),
  family_hot_refresh_count: Type.Integer(),
  reference_session_id: Type.String(),
  ip_drift: Type.Boolean(),
  device_drift: Type.Boolean(),
  rapid_ip_change: Type.Boolean(),
  rapid_device_change: Type.Boolean(),
  rapid_refresh_activity: Type.Boolean(),
  refresh_recency: Type.String(),
  is_current: Type.Optional(Type.Boolean()),
  user_agent: Type.String(),
  client_ip: Type.String(),
  created_at: Type.String(),
  last_seen_at: Type.String(),
  last_refresh_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
})
export type SessionView = Static<typeof SessionView>

export const SessionList = BoundedList(SessionView)

export const LogoutCurrentResponse = Type.Object({
  session_id: Type.String(),
  status: Type.Literal('revoked'),
  token_version: Type.Integer(),
})

export const LogoutOthersResponse = Type.Object({
  current_session_id: Type.String(),
  count: Type.Integer(),
})

/** One scope of the login chooser (`scopes` of a 400 `IDENTITY_SCOPE_REQUIRED`). */
export const ScopeChoice = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  tenant_name: Type.String(),
  workspace_name: Type.String(),
  kind: Type.Union([Type.Literal('agent'), Type.Literal('customer')]),
})

/** Login's 400: the error body, plus the scopes to choose from when the password matched and a scope is needed. */
export type ScopeChoice = Static<typeof ScopeChoice>

export const LoginBadRequest = Type.Composite([
  ErrorBody,
  Type.Object({ scopes: Type.Optional(Type.Array(ScopeChoice)) }),
])

/** `GET /api/v1/auth/scopes`: where the caller may log in, and the scope its token carries now ('' = unscoped). */
export const ScopeChoices = Type.Object({
  count: Type.Integer(),
  current: Type.Object({ tenant_id: Type.String(), workspace_id: Type.String() }),
  items: Type.Array(ScopeChoice),
})
