import { createError } from '@switchboard/platform'

/** This service's error catalog; codes are stable and prefixed (docs/conventions.md §6). */
export const AuditErrors = {
  /** also the answer for a record outside the caller's tenant/workspace, so existence is not revealed */
  NotFound: createError('AUDIT_NOT_FOUND', 'audit record %s not found', 404),
  InvalidDate: createError('AUDIT_INVALID_DATE', '%s', 400),
  InvalidRange: createError('AUDIT_INVALID_RANGE', '%s', 400),
  ServiceOnly: createError('AUDIT_SERVICE_ONLY', 'only service principals may call this endpoint', 403),
}
