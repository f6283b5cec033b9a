import { type Static, Type } from '@sinclair/typebox'
import { PageQuery } from '@switchboard/contracts'
import { KnowledgeProviderSection, LlmSection, PortalSection, SessionRiskSection } from './document.schemas.ts'

const Ref = Type.String({ minLength: 1, maxLength: 200 })
const Reason = Type.String({ minLength: 1, maxLength: 2000 })
/**
 * change_ref, reason and approval_ref may come in the body or in the headers X-Change-Ref, X-Change-Reason and
 * X-Approval-Ref (spec, Scoped configuration rule 1); the body wins when both are given.
 */
const ChangeControl = {
  change_ref: Type.Optional(Ref),
  reason: Type.Optional(Reason),
  approval_ref: Type.Optional(Ref),
}
const section = <T extends Parameters<typeof Type.Partial>[0]>(s: T) =>
  Type.Optional(Type.Union([Type.Partial(s), Type.Null()]))

/** PUT: the sections present replace the stored ones whole; `null` removes a section's override. */
export const PutConfigBody = Type.Object(
  {
    portal: section(PortalSection),
    llm: section(LlmSection),
    knowledge_provider: section(KnowledgeProviderSection),
    session_risk: section(SessionRiskSection),
    ...ChangeControl,
  },
  { additionalProperties: false },
)
export type PutConfigBody = Static<typeof PutConfigBody>

export const ApproveBody = Type.Object(
  {
    notes: Type.String({ maxLength: 4000 }),
    evidence: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
    ...ChangeControl,
  },
  { additionalProperties: false },
)
export type ApproveBody = Static<typeof ApproveBody>

export const RollbackBody = Type.Object(
  {
    confirm: Type.Optional(Type.Boolean()),
    /**
     * `after` (default): the state right after the chosen entry; `before`: the state right before it, i.e. the
     * entry undone — so the first change of a scope can be undone too.
     */
    restore: Type.Optional(Type.Union([Type.Literal('after'), Type.Literal('before')])),
    ...ChangeControl,
  },
  { additionalProperties: false },
)
export type RollbackBody = Static<typeof RollbackBody>
export const RollbackQuery = Type.Object({ confirm: Type.Optional(Type.Boolean()) })

const Check = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    status: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('skipped')]),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)

/** status is checked by the rules (its own 400 code), so any string passes the schema. */
export const VerifyBody = Type.Object(
  {
    status: Type.String({ maxLength: 40 }),
    notes: Type.Optional(Type.String({ maxLength: 4000 })),
    evidence: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
    checks: Type.Optional(Type.Array(Check, { maxItems: 100 })),
    ...ChangeControl,
  },
  { additionalProperties: false },
)
export type VerifyBody = Static<typeof VerifyBody>

const Literals = (values: string[]) => Type.Union(values.map((v) => Type.Literal(v)))
export const GOVERNANCE_STATUSES = [
  'awaiting_approval',
  'awaiting_verification',
  'verified',
  'verification_failed',
  'approved',
  'not_required',
]
export const HistoryQuery = Type.Composite([
  PageQuery,
  Type.Object({
    action: Type.Optional(Literals(['update', 'rollback'])),
    governance_status: Type.Optional(Literals(GOVERNANCE_STATUSES)),
    risk_level: Type.Optional(Literals(['low', 'medium', 'high'])),
    approval_status: Type.Optional(Literals(['not_required', 'missing', 'provided', 'approved'])),
    verification_status: Type.Optional(Literals(['pending', 'passed', 'failed'])),
    needs_action: Type.Optional(Type.Boolean()),
  }),
])
export type HistoryQuery = Static<typeof HistoryQuery>

export const AuditIdParams = Type.Object({ audit_id: Type.String({ minLength: 1, maxLength: 64 }) })

/** Governance metadata blocks (spec: change metadata); their fields are documented in the README. */
const Block = Type.Unsafe<object>({ type: 'object', additionalProperties: true })
const Doc = Type.Unsafe<object>({
  type: 'object',
  additionalProperties: true,
  description: 'the stored overrides; every secret "[REDACTED]"',
})

export const ConfigView = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.Optional(Type.String()),
  config: Doc,
  /** fingerprint of each stored secret, by dotted path: tells whether a key changed, never what it is */
  secrets: Type.Record(Type.String(), Type.String()),
  version: Type.Integer(),
  updated_at: Type.Union([Type.String(), Type.Null()]),
})

export const GovernanceBlocks = {
  change_control: Block,
  change_risk: Block,
  approval_policy: Block,
  operation: Type.String(),
  preview: Block,
  rollback: Block,
  verify: Block,
  verification_required: Type.Boolean(),
  verification_status: Type.String(),
  verification_count: Type.Integer(),
  latest_verification: Type.Union([Block, Type.Null()]),
  verification_template: Block,
  verification_policy: Block,
  governance_status: Type.String(),
  governance_policy: Block,
  needs_action: Type.Boolean(),
}

export const WriteResponse = Type.Object({
  ...ConfigView.properties,
  audit_id: Type.String(),
  source_audit_id: Type.Optional(Type.String()),
  ...GovernanceBlocks,
})

const Audit = Type.Object({
  id: Type.String(),
  action: Type.String(),
  actor_user_id: Type.String(),
  created_at: Type.String(),
  change_ref: Type.String(),
  reason: Type.String(),
  approval_ref: Type.Union([Type.String(), Type.Null()]),
  source_audit_id: Type.Union([Type.String(), Type.Null()]),
  version: Type.Integer(),
})

export const HistoryItem = Type.Object({
  audit: Audit,
  has_snapshot: Type.Boolean(),
  can_rollback: Type.Boolean(),
  ...GovernanceBlocks,
})

export const HistoryList = Type.Object({
  data: Type.Array(HistoryItem),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  pages: Type.Integer(),
  governance_summary: Block,
  applied_filters: Type.Union([Block, Type.Null()]),
})

export const HistoryEntry = Type.Object({
  ...HistoryItem.properties,
  snapshot: Doc,
  before: Doc,
  current: Doc,
  diff: Block,
  verifications: Type.Array(Block),
})

export const ApproveResponse = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.Optional(Type.String()),
  approval: Block,
  change_control: Block,
  approval_policy: Block,
})

export const VerifyResponse = Type.Object({
  source_audit_id: Type.String(),
  source_action: Type.String(),
  verification_status: Type.String(),
  verification: Block,
  source_change_control: Block,
  source_change_risk: Block,
  source_approval_policy: Block,
  source_governance_status: Type.String(),
  source_governance_policy: Block,
  previous_governance_status: Type.String(),
  governance_status: Type.String(),
  governance_policy: Block,
  verification_template: Block,
  verification_required: Type.Boolean(),
  verification_policy: Block,
})

export const PortalQuery = Type.Object({
  tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
  workspace_id: Type.Optional(Type.String({ maxLength: 64 })),
})

export const PortalConfigView = Type.Object({
  brand_name: Type.String(),
  logo_url: Type.Optional(Type.String()),
  primary_color: Type.String(),
  secondary_color: Type.String(),
  default_locale: Type.String(),
  locales: Type.Array(Type.String()),
  support_email: Type.Optional(Type.String()),
  widget: Type.Object({
    allowed_origins: Type.Array(Type.String()),
    prechat: Type.Union([Type.Literal('off'), Type.Literal('name'), Type.Literal('name_email')]),
    greeting: Type.Union([Type.String(), Type.Null()]),
    offline_message: Type.Union([Type.String(), Type.Null()]),
  }),
})

/** `GET /internal/widget/embed-policy`: the sites a scope's widget may be embedded in (empty: any). */
export const EmbedPolicyQuery = Type.Object({
  tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
  workspace_id: Type.String({ minLength: 1, maxLength: 64 }),
})
export const EmbedPolicy = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  allowed_origins: Type.Array(Type.String()),
})
