import { createError } from '@switchboard/platform'

/**
 * config-governance's error catalog; codes are stable (docs/conventions.md §6). The rules' own refusals (approval,
 * verification) come from src/domain/governance.ts with their codes and are answered through `Refused`.
 */
export const ConfigErrors = {
  TenantScopeRequired: createError(
    'TENANT_SCOPE_REQUIRED',
    'a tenant scope is required: a tenant token, or X-Tenant-ID for an unscoped administrator',
    400,
  ),
  WorkspaceScopeRequired: createError(
    'WORKSPACE_SCOPE_REQUIRED',
    'a workspace scope is required: a workspace token, or X-Tenant-ID and X-Workspace-ID for an unscoped administrator',
    400,
  ),
  /**
   * a tenant-scope write (PUT, approve, rollback, verify) by a token bound to one workspace: the tenant document
   * applies to every workspace of the tenant, so only a principal not bound to one workspace changes it
   */
  TenantAdminRequired: createError(
    'TENANT_ADMIN_REQUIRED',
    'the tenant configuration applies to every workspace of tenant %s; this token is bound to workspace %s: change it as a tenant administrator (a token bound to no workspace)',
    403,
  ),
  ChangeControlRequired: createError(
    'CHANGE_CONTROL_REQUIRED',
    'provide change_ref and reason via JSON body or X-Change-Ref / X-Change-Reason headers',
    400,
  ),
  ApprovalNotesRequired: createError(
    'APPROVAL_NOTES_REQUIRED',
    'an approval needs notes saying what was reviewed',
    400,
  ),
  ApprovalRefRequired: createError(
    'APPROVAL_REF_REQUIRED',
    'an approval needs approval_ref (body or X-Approval-Ref)',
    400,
  ),
  ReviewerRequired: createError('APPROVAL_REVIEWER_REQUIRED', 'an approval must be recorded by a user, not %s', 403),
  /** also the answer for another scope's entry, so existence is not revealed */
  HistoryNotFound: createError('CONFIG_HISTORY_NOT_FOUND', 'config history entry %s not found', 404),
  RollbackConfirmationRequired: createError(
    'ROLLBACK_CONFIRMATION_REQUIRED',
    'set confirm=true in query or JSON body to execute the rollback',
    400,
  ),
  SecretNotStored: createError(
    'CONFIG_SECRET_NOT_STORED',
    'body.%s: "[REDACTED]" keeps the stored secret, but none is stored; send the value',
    400,
  ),
  BadThresholds: createError(
    'VALIDATION_FAILED',
    'body.session_risk.medium_risk_score: must not be above high_risk_score',
    400,
  ),
  SecretUnreadable: createError(
    'CONFIG_SECRET_UNREADABLE',
    '%s is sealed under an encryption key this service no longer has: set it anew instead of restoring it',
    409,
  ),
  /** also the answer for another scope's pending change, so existence is not revealed */
  PendingNotFound: createError('CONFIG_PENDING_NOT_FOUND', 'pending config change %s not found', 404),
  PendingDecided: createError('CONFIG_PENDING_DECIDED', 'pending config change %s was already %s', 409),
  PendingStale: createError(
    'CONFIG_PENDING_STALE',
    'the scope changed since this change was proposed (version %s, now %s): reject it and propose it again',
    409,
  ),
  ApprovalNotRequired: createError(
    'APPROVAL_NOT_REQUIRED',
    'this change is %s risk and needs no approval: send it with PUT',
    400,
  ),
  DecisionNotesRequired: createError('DECISION_NOTES_REQUIRED', 'say in notes what was reviewed', 400),
  /** the proposer's own no is a withdrawal, not a second person's rejection */
  RejectSameActor: createError(
    'REJECTION_SAME_ACTOR',
    'the proposer %s may not reject its own change: withdraw it instead',
    403,
  ),
  WithdrawProposerOnly: createError(
    'WITHDRAW_PROPOSER_ONLY',
    'only the proposer %s may withdraw this change: reject it instead',
    403,
  ),
  /** also the answer for another scope's integration, so existence is not revealed */
  IntegrationNotFound: createError('CONFIG_INTEGRATION_NOT_FOUND', 'app integration %s not found', 404),
  IntegrationSlugTaken: createError(
    'CONFIG_INTEGRATION_SLUG_TAKEN',
    'an app integration with slug %s exists in this workspace',
    409,
  ),
  /** a field of an integration that its schema alone cannot judge (URLs, settings, the settings' schema) */
  IntegrationInvalid: createError('VALIDATION_FAILED', 'body.%s: %s', 400),
  IntegrationSecretNotStored: createError(
    'CONFIG_INTEGRATION_SECRET_NOT_STORED',
    'body.config.%s: "[REDACTED]" keeps the stored secret, but none is stored; send the value',
    400,
  ),
  IntegrationSecretUnreadable: createError(
    'CONFIG_INTEGRATION_SECRET_UNREADABLE',
    'config.%s is sealed under an encryption key this service no longer has: send it anew',
    409,
  ),
  /** `/internal/*` answers service principals only (the realtime hub, the gateway) */
  ServiceOnly: createError('CONFIG_SERVICE_ONLY', 'only a service principal may call %s', 403),
  /** a refusal of the governance rules: status and code as the rule names them */
  Refused: (status: number, code: string, message: string) => {
    const key = `${status} ${code}`
    let E = refusals.get(key)
    if (!E) {
      E = createError(code, '%s', status)
      refusals.set(key, E)
    }
    return new E(message)
  },
}

const refusals = new Map<string, ReturnType<typeof createError>>()
