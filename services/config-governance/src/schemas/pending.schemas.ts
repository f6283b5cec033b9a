import { type Static, Type } from '@sinclair/typebox'
import { PageQuery, Paginated } from '@switchboard/contracts'
import { PENDING_STATUSES } from '../db/pending-changes.repository.ts'
import { WriteResponse } from './governance.schemas.ts'

/** README "Pending changes": the wire shapes of proposals waiting for a second administrator. */

const Block = Type.Unsafe<object>({ type: 'object', additionalProperties: true })
const Literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)))

export const PendingQuery = Type.Composite([
  PageQuery,
  Type.Object({
    /** default `pending`: the approvals list; `all` for every status */
    status: Type.Optional(Literals([...PENDING_STATUSES, 'all'])),
  }),
])
export type PendingQuery = Static<typeof PendingQuery>

export const PendingIdParams = Type.Object({ pending_id: Type.String({ minLength: 1, maxLength: 64 }) })

/** approve (notes required: what was reviewed), reject (notes required: why), withdraw (notes optional) */
export const DecisionBody = Type.Object(
  {
    notes: Type.Optional(Type.String({ maxLength: 4000 })),
    evidence: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
)
export type DecisionBody = Static<typeof DecisionBody>

export const PendingView = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.Optional(Type.String()),
  status: Literals(PENDING_STATUSES),
  proposer_user_id: Type.String(),
  change_control: Block,
  change_risk: Block,
  verification_template: Block,
  /** changed_paths and each change's before/after, secrets `"[REDACTED]"` */
  diff: Block,
  base_version: Type.Integer(),
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decided_at: Type.Union([Type.String(), Type.Null()]),
  decision_notes: Type.Union([Type.String(), Type.Null()]),
  /** the history entry its approval produced */
  applied_audit_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  /** what the caller may do with it: approve / reject (not its proposer), withdraw (its proposer) */
  actions: Type.Object({ approve: Type.Boolean(), reject: Type.Boolean(), withdraw: Type.Boolean() }),
  links: Block,
})

export const PendingList = Paginated(PendingView)

export const ApprovePendingResponse = Type.Object({
  pending: PendingView,
  approval: Block,
  /** the executed change, as PUT answers it */
  applied: WriteResponse,
})

export const PreviewResponse = Type.Object({
  tenant_id: Type.String(),
  workspace_id: Type.Optional(Type.String()),
  change_risk: Block,
  verification_template: Block,
  diff: Block,
  /** the scope's version the preview was computed against */
  base_version: Type.Integer(),
})
