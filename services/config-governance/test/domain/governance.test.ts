import t from 'tap'
import {
  type ApprovalRecord,
  assessChange,
  type ChangeRecord,
  type VerificationCheck,
  type VerificationRecord,
  verificationTemplate,
} from '../../src/domain/change-risk.ts'
import { approvalRefusal, governanceOf, normaliseChecks, verificationRefusal } from '../../src/domain/governance.ts'

// --- approval gate

const approval = (over: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id: 'a1',
  approval_ref: 'APR-1',
  change_ref: 'CHG-1',
  actor_user_id: 'approver',
  notes: 'looked at it',
  evidence: [],
  created_at: '2026-11-24T10:00:00.000Z',
  ...over,
})
const HIGH = assessChange({}, { llm: { base_url: 'https://llm.example' } }, 'update')
const MEDIUM = assessChange({}, { llm: { model: 'm' } }, 'update')
const REF = { approval_ref: 'APR-1', change_ref: 'CHG-1' }

t.test('approvalRefusal: only a high-risk change needs an approval', async (t) => {
  t.equal(approvalRefusal(MEDIUM, { approval_ref: null, change_ref: 'CHG-1' }, 'exec', []), null)
  t.equal(approvalRefusal(HIGH, REF, 'exec', [approval()]), null)
})

t.test('approvalRefusal: APPROVAL_REF_REQUIRED, APPROVAL_NOT_FOUND, APPROVAL_SAME_ACTOR', async (t) => {
  t.match(approvalRefusal(HIGH, { approval_ref: null, change_ref: 'CHG-1' }, 'exec', [approval()]), {
    status: 400,
    code: 'APPROVAL_REF_REQUIRED',
    message: /approval_ref/,
  })
  t.match(approvalRefusal(HIGH, { approval_ref: '  ', change_ref: 'CHG-1' }, 'exec', []), {
    code: 'APPROVAL_REF_REQUIRED',
  })
  t.match(approvalRefusal(HIGH, REF, 'exec', []), { status: 400, code: 'APPROVAL_NOT_FOUND', message: /APR-1/ })
  t.match(
    approvalRefusal(HIGH, REF, 'exec', [approval({ change_ref: 'CHG-2' }), approval({ approval_ref: 'APR-2' })]),
    { code: 'APPROVAL_NOT_FOUND' },
    'an approval of another change or another ref does not count',
  )
  t.match(approvalRefusal(HIGH, REF, 'approver', [approval()]), { status: 403, code: 'APPROVAL_SAME_ACTOR' })
  const rollback = assessChange({}, {}, 'rollback')
  t.match(approvalRefusal(rollback, { approval_ref: null, change_ref: 'CHG-1' }, 'exec', []), {
    code: 'APPROVAL_REF_REQUIRED',
  })
})

t.test('approvalRefusal: the latest approval for the key wins', async (t) => {
  const byOther = approval({ id: 'a1', actor_user_id: 'other', created_at: '2026-11-24T10:00:00.000Z' })
  const byExec = approval({ id: 'a2', actor_user_id: 'exec', created_at: '2026-11-24T11:00:00.000Z' })
  t.match(approvalRefusal(HIGH, REF, 'exec', [byExec, byOther]), { code: 'APPROVAL_SAME_ACTOR' })
  const laterOther = { ...byOther, id: 'a3', created_at: '2026-11-24T12:00:00.000Z' }
  t.equal(approvalRefusal(HIGH, REF, 'exec', [laterOther, byExec]), null)
  // same instant: the greater id is the later
  const tie = { ...byOther, id: 'a9', created_at: byExec.created_at }
  t.equal(approvalRefusal(HIGH, REF, 'exec', [byExec, tie]), null)
  t.match(approvalRefusal(HIGH, REF, 'exec', [{ ...tie, id: 'a0' }, byExec]), { code: 'APPROVAL_SAME_ACTOR' })
})

// --- verification rules

const change = (over: Partial<ChangeRecord> = {}): ChangeRecord => ({
  id: 'c1',
  operation: 'update',
  actor_user_id: 'exec',
  change_ref: 'CHG-1',
  reason: 'new model',
  approval_ref: null,
  before: { llm: { model: 'm1' } },
  after: { llm: { model: 'm2' } },
  created_at: '2026-11-24T10:00:00.000Z',
  ...over,
})
const idsOf = (c: ChangeRecord) => verificationTemplate(c.before, c.after, c.operation).checks.map((x) => x.id)
const allPassed = (c: ChangeRecord): VerificationCheck[] => idsOf(c).map((id) => ({ id, status: 'passed' }))

t.test('verificationRefusal: a passed verification with evidence and every check passed is accepted', async (t) => {
  const c = change()
  t.same(idsOf(c), [
    'change_scope_reviewed',
    'llm_provider_verified',
    'llm_model_contract_verified',
    'runtime_effect_confirmed',
  ])
  t.equal(verificationRefusal(c, { status: 'passed', evidence: ['run #12'], checks: allPassed(c) }, 'reviewer'), null)
  const failed: VerificationCheck[] = [{ id: 'llm_model_contract_verified', status: 'failed', notes: 'truncated' }]
  t.equal(verificationRefusal(c, { status: 'failed', notes: 'replies truncated', checks: failed }, 'reviewer'), null)
})

t.test('verificationRefusal: reviewer rules (403)', async (t) => {
  const body = { status: 'passed', evidence: ['e'], checks: allPassed(change()) }
  t.match(verificationRefusal(change(), body, ''), { status: 403, code: 'VERIFICATION_REVIEWER_REQUIRED' })
  t.match(verificationRefusal(change(), body, 'system'), { status: 403, code: 'VERIFICATION_REVIEWER_REQUIRED' })
  t.match(verificationRefusal(change(), body, 'exec'), { status: 403, code: 'VERIFICATION_SAME_ACTOR' })
})

t.test('verificationRefusal: body rules (400)', async (t) => {
  const c = change()
  const checks = allPassed(c)
  const refused = (body: Parameters<typeof verificationRefusal>[1]) => verificationRefusal(c, body, 'reviewer')
  t.match(refused({ status: 'done', evidence: ['e'], checks }), { status: 400, code: 'VERIFICATION_INVALID_STATUS' })
  t.match(refused({ status: 'passed', checks }), { code: 'VERIFICATION_EVIDENCE_REQUIRED' })
  t.match(refused({ status: 'passed', evidence: [' '], checks }), { code: 'VERIFICATION_EVIDENCE_REQUIRED' })
  t.match(refused({ status: 'failed', evidence: ['e'], checks }), { code: 'VERIFICATION_NOTES_REQUIRED' })
  t.match(refused({ status: 'failed', notes: '  ', checks }), { code: 'VERIFICATION_NOTES_REQUIRED' })
  t.match(refused({ status: 'passed', evidence: ['e'] }), { code: 'VERIFICATION_CHECKS_REQUIRED' })
  t.match(refused({ status: 'passed', evidence: ['e'], checks: [] }), { code: 'VERIFICATION_CHECKS_REQUIRED' })
  t.match(refused({ status: 'passed', evidence: ['e'], checks: [...checks, { id: 'made_up', status: 'passed' }] }), {
    status: 400,
    code: 'VERIFICATION_UNKNOWN_CHECK',
    message: /made_up/,
  })
  t.match(
    refused({
      status: 'passed',
      evidence: ['e'],
      checks: [
        { id: 'change_scope_reviewed', status: 'passed' },
        { id: 'llm_provider_verified', status: 'skipped' },
      ],
    }),
    {
      code: 'VERIFICATION_CHECKS_INCOMPLETE',
      message: /llm_provider_verified, llm_model_contract_verified, runtime_effect_confirmed/,
    },
  )
  t.notMatch(
    refused({ status: 'passed', evidence: ['e'], checks: checks.slice(1) })?.message ?? '',
    /llm_provider_verified/,
    'names only what is missing',
  )
  t.match(refused({ status: 'failed', notes: 'n', checks }), { code: 'VERIFICATION_FAILED_CHECK_REQUIRED' })
  t.match(refused({ status: 'failed', notes: 'n', checks: [{ id: 'runtime_effect_confirmed', status: 'skipped' }] }), {
    code: 'VERIFICATION_FAILED_CHECK_REQUIRED',
  })
})

t.test('verificationRefusal: a rollback needs rollback_baseline_restored too', async (t) => {
  const c = change({ operation: 'rollback' })
  const checks = allPassed(change()) // the update's checks: no rollback_baseline_restored
  t.match(verificationRefusal(c, { status: 'passed', evidence: ['e'], checks }, 'reviewer'), {
    code: 'VERIFICATION_CHECKS_INCOMPLETE',
    message: /rollback_baseline_restored/,
  })
  t.equal(verificationRefusal(c, { status: 'passed', evidence: ['e'], checks: allPassed(c) }, 'reviewer'), null)
})

t.test('duplicated checks count once, the last entry wins', async (t) => {
  const checks: VerificationCheck[] = [
    { id: 'a', status: 'failed', notes: 'first' },
    { id: 'b', status: 'passed' },
    { id: 'a', status: 'passed', notes: 'again' },
  ]
  t.same(normaliseChecks(checks), [
    { id: 'a', status: 'passed', notes: 'again' },
    { id: 'b', status: 'passed' },
  ])
  const c = change()
  const [first, ...rest] = allPassed(c)
  const withDup = [{ ...first!, status: 'failed' as const }, ...rest, first!]
  t.equal(verificationRefusal(c, { status: 'passed', evidence: ['e'], checks: withDup }, 'reviewer'), null)
  const failedLast = [...allPassed(c), { ...first!, status: 'failed' as const }]
  t.match(verificationRefusal(c, { status: 'passed', evidence: ['e'], checks: failedLast }, 'reviewer'), {
    code: 'VERIFICATION_CHECKS_INCOMPLETE',
    message: /change_scope_reviewed/,
  })
})

// --- governance state

const verification = (over: Partial<VerificationRecord> = {}): VerificationRecord => ({
  id: 'v1',
  change_id: 'c1',
  status: 'passed',
  actor_user_id: 'reviewer',
  notes: '',
  evidence: ['e'],
  checks: [],
  created_at: '2026-11-24T12:00:00.000Z',
  ...over,
})
const highChange = (over: Partial<ChangeRecord> = {}) =>
  change({ before: {}, after: { session_risk: { high_risk_score: 9 } }, approval_ref: 'APR-1', ...over })

t.test('state machine: awaiting_approval → awaiting_verification → verified / verification_failed', async (t) => {
  const noRef = governanceOf(highChange({ approval_ref: null }), [], [])
  t.match(noRef, {
    governance_status: 'awaiting_approval',
    needs_action: true,
    approval_policy: {
      required: true,
      approval_status: 'missing',
      approval_ref_present: false,
      approval_recorded: false,
    },
    governance_policy: { phase: 'approval', workflow_complete: false, blocking_requirements: ['approval_ref'] },
  })

  t.same(noRef.governance_policy.blocking_requirements, ['approval_ref'])

  const noRecord = governanceOf(highChange(), [], [])
  t.match(noRecord, {
    governance_status: 'awaiting_approval',
    approval_policy: { approval_status: 'provided', approval_ref_present: true, approval_recorded: false },
  })

  const approved = governanceOf(highChange(), [approval()], [])
  t.match(approved, {
    governance_status: 'awaiting_verification',
    verification_status: 'pending',
    verification_count: 0,
    latest_verification: null,
    needs_action: true,
    approval_policy: {
      approval_status: 'approved',
      approval_recorded: true,
      latest_approval_audit_id: 'a1',
      latest_approver_user_id: 'approver',
      latest_approval_at: '2026-11-24T10:00:00.000Z',
    },
    governance_policy: {
      status: 'awaiting_verification',
      phase: 'verification',
      blocking_requirements: ['distinct_reviewer_verification'],
    },
    verification_policy: { verification_pending_reason: 'awaiting_distinct_reviewer_verification' },
  })

  t.same(approved.governance_policy.blocking_requirements, ['distinct_reviewer_verification'])

  const failed = governanceOf(highChange(), [approval()], [verification({ status: 'failed', notes: 'broken' })])
  t.match(failed, {
    governance_status: 'verification_failed',
    verification_status: 'failed',
    needs_action: true,
    governance_policy: { phase: 'verification', blocking_requirements: ['successful_verification_or_rollback'] },
    verification_policy: { verification_pending_reason: null },
  })

  t.same(failed.governance_policy.blocking_requirements, ['successful_verification_or_rollback'])

  const fixed = governanceOf(
    highChange(),
    [approval()],
    [verification({ id: 'v2', created_at: '2026-11-24T13:00:00.000Z' }), verification({ status: 'failed' })],
  )
  t.match(fixed, {
    governance_status: 'verified',
    verification_status: 'passed',
    verification_count: 2,
    latest_verification: { id: 'v2' },
    needs_action: false,
    governance_policy: { phase: 'completed', workflow_complete: true, blocking_requirements: [] },
    verification_policy: { latest_reviewer_user_id: 'reviewer', verification_count: 2 },
  })
  t.same(fixed.governance_policy.blocking_requirements, [])
})

t.test('governanceOf: the latest verification is the greatest created_at, ties by id', async (t) => {
  const at = '2026-11-24T12:00:00.000Z'
  const g = governanceOf(
    highChange(),
    [approval()],
    [verification({ id: 'v9', status: 'failed', created_at: at }), verification({ id: 'v1', created_at: at })],
  )
  t.equal(g.latest_verification?.id, 'v9')
  t.equal(g.governance_status, 'verification_failed')
  const other = governanceOf(highChange(), [approval()], [verification({ change_id: 'c2' })])
  t.equal(other.verification_count, 0, "another change's verification does not count")
})

t.test('governanceOf: approvals of the executor or another key do not back the change', async (t) => {
  const g = governanceOf(
    highChange(),
    [approval({ actor_user_id: 'exec' }), approval({ id: 'a2', change_ref: 'CHG-2' })],
    [],
  )
  t.match(g, {
    governance_status: 'awaiting_approval',
    approval_policy: { approval_recorded: false, approval_count: 1 },
  })
})

t.test('governanceOf: a medium change needs verification only; a no-op update needs nothing', async (t) => {
  const medium = governanceOf(change(), [], [])
  t.match(medium, {
    operation: 'update',
    change_control: { change_ref: 'CHG-1', reason: 'new model', approval_ref: null },
    change_risk: { risk_level: 'medium', approval_required: false },
    approval_policy: { required: false, approval_status: 'not_required', same_actor_allowed: false },
    verification_required: true,
    governance_status: 'awaiting_verification',
    verification_policy: {
      required: true,
      checks_required: true,
      template_check_count: 4,
      required_check_ids: idsOf(change()),
      allowed_check_statuses: ['passed', 'failed', 'skipped'],
      source_actor_user_id: 'exec',
      dual_control_enforceable: true,
    },
  })
  t.same(medium.verification_policy.required_check_ids, idsOf(change()))
  t.same(medium.verification_template, verificationTemplate(change().before, change().after, 'update'))

  const noop = governanceOf(change({ after: { llm: { model: 'm1' } } }), [], [])
  t.match(noop, {
    change_risk: { risk_level: 'low', changed_paths: [] },
    verification_required: false,
    governance_status: 'not_required',
    needs_action: false,
    governance_policy: { phase: 'completed', workflow_complete: true, blocking_requirements: [] },
    verification_policy: { checks_required: false, template_check_count: 0, verification_pending_reason: null },
  })
  t.same(noop.change_risk.changed_paths, [])
  t.same(noop.governance_policy.blocking_requirements, [])
})

t.test('governanceOf: a rollback always waits for approval, then verification', async (t) => {
  const rb = change({ operation: 'rollback', after: { llm: { model: 'm1' } }, approval_ref: 'APR-1' })
  t.match(governanceOf(rb, [], []), { change_risk: { risk_level: 'high' }, governance_status: 'awaiting_approval' })
  t.match(governanceOf(rb, [approval()], []), {
    verification_required: true,
    governance_status: 'awaiting_verification',
  })
  t.match(governanceOf({ ...rb, actor_user_id: 'system' }, [approval()], []), {
    verification_policy: { dual_control_enforceable: false, verification_pending_reason: 'source_actor_unknown' },
  })
})
