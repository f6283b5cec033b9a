// Where a scoped config change stands and what the rules refuse (README "Governance"):
// when a write needs another user's approval, what a verification must hold, the approval / verification /
// governance policies and states of a history entry. Pure: records and ids in, plain values out. Risk and the
// verification template are change-risk.ts.
import {
  type ApprovalRecord,
  analyseChange,
  type ChangeRecord,
  type ChangeRisk,
  type Operation,
  type Refusal,
  type RiskLevel,
  type VerificationCheck,
  type VerificationRecord,
  type VerificationTemplate,
  verificationTemplate,
} from './change-risk.ts'

export type ApprovalStatus = 'not_required' | 'missing' | 'provided' | 'approved'
export type VerificationStatus = 'pending' | 'passed' | 'failed'
export type GovernanceStatus =
  | 'awaiting_approval'
  | 'awaiting_verification'
  | 'verified'
  | 'verification_failed'
  | 'approved'
  | 'not_required'

export type ApprovalPolicy = {
  required: boolean
  approval_ref_required: boolean
  approval_ref_present: boolean
  /** an approval by a user other than the executor exists for approval_ref + change_ref */
  approval_recorded: boolean
  approval_status: ApprovalStatus
  same_actor_allowed: false
  risk_level: RiskLevel
  risk_reasons: string[]
  changed_paths: string[]
  approval_count: number
  /** the latest approval by a user other than the executor: the one that backs the change */
  latest_approval: ApprovalRecord | null
  latest_approval_audit_id: string | null
  latest_approval_at: string | null
  latest_approver_user_id: string | null
}

export type VerificationPolicy = {
  required: boolean
  same_actor_allowed: false
  reviewer_user_required: true
  evidence_required_for_pass: true
  notes_required_for_fail: true
  checks_required: boolean
  template_check_count: number
  required_check_ids: string[]
  allowed_check_statuses: Array<VerificationCheck['status']>
  all_required_checks_must_pass_for_pass: true
  failed_check_required_for_fail: boolean
  verification_status: VerificationStatus
  verification_count: number
  latest_reviewer_user_id: string | null
  source_actor_user_id: string
  /** the executor is a known user, so "reviewer ≠ executor" can be enforced */
  dual_control_enforceable: boolean
  verification_pending_reason: 'source_actor_unknown' | 'awaiting_distinct_reviewer_verification' | null
}

export type GovernancePolicy = {
  status: GovernanceStatus
  phase: 'approval' | 'verification' | 'completed'
  workflow_complete: boolean
  approval_required: boolean
  approval_status: ApprovalStatus
  verification_required: boolean
  verification_status: VerificationStatus
  blocking_requirements: string[]
  /** the rollback entry that answered this change, if any */
  rolled_back_by: string | null
  risk_level: RiskLevel
  risk_reasons: string[]
  changed_paths: string[]
}

/** Every governance block of a history entry (spec: scoped config change metadata). */
export type GovernanceView = {
  change_control: { change_ref: string; reason: string; approval_ref: string | null }
  change_risk: ChangeRisk
  approval_policy: ApprovalPolicy
  operation: Operation
  /** false only for an update that changed nothing */
  verification_required: boolean
  verification_status: VerificationStatus
  verification_count: number
  latest_verification: VerificationRecord | null
  verification_template: VerificationTemplate
  verification_policy: VerificationPolicy
  governance_status: GovernanceStatus
  governance_policy: GovernancePolicy
  needs_action: boolean
}

/** The latest record: greatest created_at (as an instant when both parse), ties by id. */
function latestOf<T extends { id: string; created_at: string }>(records: readonly T[]): T | null {
  let latest: T | null = null
  for (const r of records) if (!latest || compareRecords(r, latest) > 0) latest = r
  return latest
}

function compareRecords(a: { id: string; created_at: string }, b: { id: string; created_at: string }): number {
  const ta = Date.parse(a.created_at)
  const tb = Date.parse(b.created_at)
  const byTime = Number.isNaN(ta) || Number.isNaN(tb) ? a.created_at.localeCompare(b.created_at) : Math.sign(ta - tb)
  return byTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** A user the rules accept as a second person: not blank, not the system. */
const isUser = (id: string | null | undefined) => Boolean(id?.trim()) && id !== 'system'

const BLOCKING: Partial<Record<GovernanceStatus, string[]>> = {
  awaiting_approval: ['approval_ref'],
  awaiting_verification: ['distinct_reviewer_verification'],
  verification_failed: ['successful_verification_or_rollback'],
}

/**
 * The governance blocks of a change, given the approvals recorded for its approval_ref + change_ref and its
 * verifications (any order; records of another key or change are ignored).
 */
export function governanceOf(
  change: ChangeRecord,
  approvals: readonly ApprovalRecord[],
  verifications: readonly VerificationRecord[],
): GovernanceView {
  const { risk, template } = analyseChange(change.before, change.after, change.operation)

  const matching = change.approval_ref
    ? approvals.filter((a) => a.approval_ref === change.approval_ref && a.change_ref === change.change_ref)
    : []
  const backing = latestOf(matching.filter((a) => a.actor_user_id !== change.actor_user_id))
  const refPresent = Boolean(change.approval_ref)
  const approval_status: ApprovalStatus = !risk.approval_required
    ? 'not_required'
    : !refPresent
      ? 'missing'
      : backing
        ? 'approved'
        : 'provided'
  const approval_policy: ApprovalPolicy = {
    required: risk.approval_required,
    approval_ref_required: risk.approval_required,
    approval_ref_present: refPresent,
    approval_recorded: backing !== null,
    approval_status,
    same_actor_allowed: false,
    risk_level: risk.risk_level,
    risk_reasons: risk.risk_reasons,
    changed_paths: risk.changed_paths,
    approval_count: matching.length,
    latest_approval: backing,
    latest_approval_audit_id: backing?.id ?? null,
    latest_approval_at: backing?.created_at ?? null,
    latest_approver_user_id: backing?.actor_user_id ?? null,
  }

  const own = verifications.filter((v) => v.change_id === change.id)
  const latest = latestOf(own)
  const verification_required = change.operation === 'rollback' || risk.changed_paths.length > 0
  const verification_status: VerificationStatus = latest?.status ?? 'pending'

  let status: GovernanceStatus
  if (risk.approval_required && (!refPresent || !backing)) status = 'awaiting_approval'
  else if (verification_required) {
    status =
      verification_status === 'passed'
        ? 'verified'
        : verification_status === 'failed'
          ? 'verification_failed'
          : 'awaiting_verification'
  } else status = risk.approval_required && refPresent ? 'approved' : 'not_required'

  const sourceKnown = isUser(change.actor_user_id)
  const checkIds = template.checks.map((c) => c.id)
  const verification_policy: VerificationPolicy = {
    required: verification_required,
    same_actor_allowed: false,
    reviewer_user_required: true,
    evidence_required_for_pass: true,
    notes_required_for_fail: true,
    checks_required: checkIds.length > 0,
    template_check_count: checkIds.length,
    required_check_ids: checkIds,
    allowed_check_statuses: ['passed', 'failed', 'skipped'],
    all_required_checks_must_pass_for_pass: true,
    failed_check_required_for_fail: checkIds.length > 0,
    verification_status,
    verification_count: own.length,
    latest_reviewer_user_id: latest?.actor_user_id ?? null,
    source_actor_user_id: change.actor_user_id,
    dual_control_enforceable: sourceKnown,
    verification_pending_reason:
      verification_required && verification_status === 'pending'
        ? sourceKnown
          ? 'awaiting_distinct_reviewer_verification'
          : 'source_actor_unknown'
        : null,
  }

  // a failed change that a rollback already answered needs nothing more (its blocking requirement was
  // "successful verification or rollback")
  const answered = status === 'verification_failed' && Boolean(change.rolled_back_by)
  const needs_action = status in BLOCKING && !answered
  return {
    change_control: { change_ref: change.change_ref, reason: change.reason, approval_ref: change.approval_ref },
    change_risk: risk,
    approval_policy,
    operation: change.operation,
    verification_required,
    verification_status,
    verification_count: own.length,
    latest_verification: latest,
    verification_template: template,
    verification_policy,
    governance_status: status,
    governance_policy: {
      status,
      phase: status === 'awaiting_approval' ? 'approval' : needs_action ? 'verification' : 'completed',
      workflow_complete: status === 'approved' || status === 'verified' || status === 'not_required',
      approval_required: risk.approval_required,
      approval_status,
      verification_required,
      verification_status,
      blocking_requirements: answered ? [] : (BLOCKING[status] ?? []),
      rolled_back_by: change.rolled_back_by ?? null,
      risk_level: risk.risk_level,
      risk_reasons: risk.risk_reasons,
      changed_paths: risk.changed_paths,
    },
    needs_action,
  }
}

/**
 * The approval gate of a write (PUT or rollback) about to be executed by `executor`: null when it may run. A
 * high-risk change needs approval_ref, an approval recorded for approval_ref + change_ref, and (the latest such
 * approval winning) an approver other than the executor.
 */
export function approvalRefusal(
  risk: ChangeRisk,
  ref: { approval_ref: string | null; change_ref: string },
  executor: string,
  approvals: readonly ApprovalRecord[],
): Refusal | null {
  if (!risk.approval_required) return null
  const why = risk.risk_reasons.filter((r) => r !== 'scoped_config_change').join(', ')
  if (!ref.approval_ref?.trim()) {
    return {
      status: 400,
      code: 'APPROVAL_REF_REQUIRED',
      message: `This change is high risk (${why}), so it needs approval_ref (body or X-Approval-Ref) naming an approval recorded by another user.`,
    }
  }
  const latest = latestOf(
    approvals.filter((a) => a.approval_ref === ref.approval_ref && a.change_ref === ref.change_ref),
  )
  if (!latest) {
    return {
      status: 400,
      code: 'APPROVAL_NOT_FOUND',
      message: `No approval is recorded for approval_ref ${ref.approval_ref} and change_ref ${ref.change_ref}; another user must approve it first.`,
    }
  }
  if (latest.actor_user_id === executor) {
    return {
      status: 403,
      code: 'APPROVAL_SAME_ACTOR',
      message: `The latest approval of ${ref.approval_ref} was recorded by ${executor}, who is executing the change; a different user must approve it.`,
    }
  }
  return null
}

/** The checks of a verification, one per id: a repeated id keeps its last entry, in the place of its first. */
export function normaliseChecks(checks: readonly VerificationCheck[]): VerificationCheck[] {
  const byId = new Map<string, VerificationCheck>()
  for (const c of checks) byId.set(c.id, c)
  return [...byId.values()]
}

const STATUSES = new Set(['passed', 'failed'])
const CHECK_STATUSES = new Set(['passed', 'failed', 'skipped'])

const refuse = (status: 400 | 403, code: string, message: string): Refusal => ({ status, code, message })

/**
 * The rules of a verify body for the change, null when acceptable: a reviewer who is a user other than the executor;
 * status passed with evidence and every template check passed, or failed with notes and a failed check; only the
 * template's check ids (repeated ids count once, the last wins: see normaliseChecks).
 */
export function verificationRefusal(
  change: ChangeRecord,
  body: {
    status: string
    notes?: string | undefined
    evidence?: string[] | undefined
    checks?: VerificationCheck[] | undefined
  },
  reviewer_user_id: string,
): Refusal | null {
  if (!isUser(reviewer_user_id)) {
    return refuse(403, 'VERIFICATION_REVIEWER_REQUIRED', 'A verification must be recorded by an authenticated user.')
  }
  if (reviewer_user_id === change.actor_user_id) {
    return refuse(
      403,
      'VERIFICATION_SAME_ACTOR',
      `User ${reviewer_user_id} executed this change, so another user must verify it.`,
    )
  }
  if (!STATUSES.has(body.status)) {
    return refuse(400, 'VERIFICATION_INVALID_STATUS', 'The verification status must be passed or failed.')
  }
  const passed = body.status === 'passed'
  if (passed && !(body.evidence ?? []).some((e) => e.trim())) {
    return refuse(400, 'VERIFICATION_EVIDENCE_REQUIRED', 'A passed verification needs at least one piece of evidence.')
  }
  if (!passed && !body.notes?.trim()) {
    return refuse(400, 'VERIFICATION_NOTES_REQUIRED', 'A failed verification needs notes saying what failed.')
  }

  const template = verificationTemplate(change.before, change.after, change.operation)
  const known = new Set(template.checks.map((c) => c.id))
  const checks = normaliseChecks(body.checks ?? [])
  if (known.size > 0 && checks.length === 0) {
    return refuse(
      400,
      'VERIFICATION_CHECKS_REQUIRED',
      `The verification needs checks for the template's check ids: ${[...known].join(', ')}.`,
    )
  }
  for (const c of checks) {
    if (!known.has(c.id)) {
      return refuse(400, 'VERIFICATION_UNKNOWN_CHECK', `Check ${c.id} is not in this change's verification template.`)
    }
    if (!CHECK_STATUSES.has(c.status)) {
      return refuse(400, 'VERIFICATION_INVALID_STATUS', `Check ${c.id} must be passed, failed or skipped.`)
    }
  }
  if (passed) {
    const status = new Map(checks.map((c) => [c.id, c.status]))
    const missing = template.checks.filter((c) => c.required && status.get(c.id) !== 'passed').map((c) => c.id)
    if (missing.length > 0) {
      return refuse(
        400,
        'VERIFICATION_CHECKS_INCOMPLETE',
        `A passed verification needs every required check passed; not passed: ${missing.join(', ')}.`,
      )
    }
  } else if (known.size > 0 && !checks.some((c) => c.status === 'failed')) {
    return refuse(
      400,
      'VERIFICATION_FAILED_CHECK_REQUIRED',
      'A failed verification needs at least one check marked failed.',
    )
  }
  return null
}
