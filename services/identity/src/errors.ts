import { createError } from '@switchboard/platform'

/** identity's error catalog; codes are stable (clients and tests match on them). */
export const IdentityErrors = {
  DuplicateUser: createError('IDENTITY_DUPLICATE_USER', '%s is already taken', 409),
  // One message for unknown user and wrong password, so the answer reveals nothing.
  InvalidCredentials: createError('IDENTITY_INVALID_CREDENTIALS', 'invalid username or password', 401),
  UserInactive: createError('IDENTITY_USER_INACTIVE', 'user is not active', 403),
  InvalidRefreshToken: createError('IDENTITY_INVALID_REFRESH_TOKEN', 'refresh token is not valid: %s', 401),
  RefreshTokenReused: createError('IDENTITY_REFRESH_TOKEN_REUSED', 'refresh token was already used', 401),
  SessionNotActive: createError('IDENTITY_SESSION_NOT_ACTIVE', 'auth session is not active', 401),
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
}
