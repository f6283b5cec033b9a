import { createError } from '@switchboard/platform'

/**
 * identity's one error catalog; codes and statuses are stable (clients and tests match on them). Out-of-scope
 * records answer with the very same not-found error as missing ones, so existence is never revealed (docs/api.md §4).
 */
export const IdentityErrors = {
  DuplicateUser: createError('IDENTITY_DUPLICATE_USER', '%s is already taken', 409),
  // One message for unknown user and wrong password, so the answer reveals nothing.
  InvalidCredentials: createError('IDENTITY_INVALID_CREDENTIALS', 'invalid username or password', 401),
  UserInactive: createError('IDENTITY_USER_INACTIVE', 'user is not active', 403),
  InvalidRefreshToken: createError('IDENTITY_INVALID_REFRESH_TOKEN', 'refresh token is not valid: %s', 401),
  RefreshTokenReused: createError('IDENTITY_REFRESH_TOKEN_REUSED', 'refresh token was already used', 401),
  SessionNotActive: createError('IDENTITY_SESSION_NOT_ACTIVE', 'auth session is not active', 401),
  // A refresh of an ended session (logout, revoke): the client is logged out, not holding a bad token.
  SessionRevoked: createError('IDENTITY_SESSION_REVOKED', 'the auth session was revoked (logged out)', 401),
  // The refresh cookie is used only by a request a cross-site form cannot make (docs/api.md §2 "Browser clients").
  BrowserHeaderRequired: createError(
    'IDENTITY_BROWSER_HEADER_REQUIRED',
    'the refresh cookie is accepted only with the header X-Switchboard-Client: browser',
    403,
  ),
  ScopeRequired: createError('IDENTITY_SCOPE_REQUIRED', '%s', 400),
  ScopeSelectorConflict: createError('IDENTITY_SCOPE_SELECTOR_CONFLICT', '%s', 400),
  ScopeNotBound: createError('IDENTITY_SCOPE_NOT_BOUND', 'user has no binding in tenant/workspace %s', 403),
  UserNotFound: createError('IDENTITY_USER_NOT_FOUND', 'user not found', 404),
  CannotDeactivateSelf: createError(
    'IDENTITY_CANNOT_DEACTIVATE_SELF',
    'an operator cannot deactivate their own account',
    409,
  ),
  ServiceOnly: createError('IDENTITY_SERVICE_ONLY', 'only service principals may call this endpoint', 403),
  AgentNotFound: createError('IDENTITY_AGENT_NOT_FOUND', 'agent not found', 404),
  CustomerNotFound: createError('IDENTITY_CUSTOMER_NOT_FOUND', 'customer not found', 404),
  SessionNotFound: createError('IDENTITY_SESSION_NOT_FOUND', 'auth session not found', 404),
  AgentExists: createError('IDENTITY_AGENT_EXISTS', 'user is already an agent in this workspace', 409),
  CustomerExists: createError('IDENTITY_CUSTOMER_EXISTS', '%s is already taken', 409),
  TokenNotOurs: createError('IDENTITY_TOKEN_INVALID', 'token is not a valid token issued by this service: %s', 400),
  PrincipalKind: createError('IDENTITY_PRINCIPAL_KIND', 'principal kind %s may not use management endpoints', 403),
  PermissionMissing: createError('IDENTITY_PERMISSION_MISSING', 'permission %s is required', 403),
  InvalidInput: createError('IDENTITY_INVALID_INPUT', '%s', 400),
  // The tenant registry (services/identity/README.md, "Tenants and workspaces").
  TenantNotFound: createError('IDENTITY_TENANT_NOT_FOUND', 'tenant %s not found', 404),
  WorkspaceNotFound: createError('IDENTITY_WORKSPACE_NOT_FOUND', 'workspace %s not found', 404),
  TenantDisabled: createError('IDENTITY_TENANT_DISABLED', 'tenant %s is disabled', 403),
  WorkspaceDisabled: createError('IDENTITY_WORKSPACE_DISABLED', 'workspace %s is disabled', 403),
  RegistrationClosed: createError(
    'IDENTITY_REGISTRATION_CLOSED',
    'public registration is closed in tenant/workspace %s',
    403,
  ),
  WidgetDisabled: createError('IDENTITY_WIDGET_DISABLED', 'the widget is disabled in tenant/workspace %s', 403),
  TenantExists: createError('IDENTITY_TENANT_EXISTS', 'tenant %s already exists', 409),
  WorkspaceExists: createError('IDENTITY_WORKSPACE_EXISTS', 'workspace %s already exists', 409),
  PlatformOnly: createError('IDENTITY_PLATFORM_ONLY', 'only a platform administrator or service may %s', 403),
  // Operator administration.
  RoleNotGrantable: createError('IDENTITY_ROLE_NOT_GRANTABLE', '%s', 403),
  LastAdmin: createError('IDENTITY_LAST_ADMIN', '%s', 409),
  // A staff role for a user with no agent record (it would sign in through its customer binding, without staff rights).
  AgentRequired: createError('IDENTITY_AGENT_REQUIRED', '%s', 409),
  // One answer for an unknown, used or expired link: which of them it was says nothing useful to a guesser.
  SetPasswordTokenInvalid: createError(
    'IDENTITY_SET_PASSWORD_TOKEN_INVALID',
    'the set-password token is unknown, used or expired',
    400,
  ),
}
