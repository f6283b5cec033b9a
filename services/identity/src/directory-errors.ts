import { createError } from '@switchboard/platform'

/**
 * Errors of the security surface and the agent/customer directory (kept beside errors.ts so the two
 * engineers' catalogs don't collide). Out-of-scope records answer with the very same not-found error as
 * missing ones, so existence is never revealed (spec, Errors 1).
 */
export const DirectoryErrors = {
  AgentNotFound: createError('IDENTITY_AGENT_NOT_FOUND', 'agent not found', 404),
  CustomerNotFound: createError('IDENTITY_CUSTOMER_NOT_FOUND', 'customer not found', 404),
  SessionNotFound: createError('IDENTITY_SESSION_NOT_FOUND', 'auth session not found', 404),
  AgentExists: createError('IDENTITY_AGENT_EXISTS', 'user is already an agent in this workspace', 409),
  CustomerExists: createError('IDENTITY_CUSTOMER_EXISTS', '%s is already taken', 409),
  TokenNotOurs: createError('IDENTITY_TOKEN_INVALID', 'token is not a valid token issued by this service: %s', 400),
  PrincipalKind: createError('IDENTITY_PRINCIPAL_KIND', 'principal kind %s may not use management endpoints', 403),
  PermissionMissing: createError('IDENTITY_PERMISSION_MISSING', 'permission %s is required', 403),
}
