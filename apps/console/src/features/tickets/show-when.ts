/**
 * When a custom field shows on the ticket form: the tickets service's own rule (packages/contracts/src/show-when.ts,
 * the one module both use), so the form shows exactly the fields the service will ask for. Imported by its file, not
 * the contracts index: the console's bundle takes this pure module only.
 */
export {
  type Clause,
  conditionHolds,
  type Scalar,
  type ShowWhen,
  TICKET_CONTEXT_KEYS,
  type TicketContext,
} from '@switchboard/contracts/show-when.ts'

/** The operators the console's condition editor offers (`ne`, the earlier spelling of `neq`, is read, not written). */
export const CONDITION_OPS = ['eq', 'neq', 'in', 'not_in', 'exists'] as const
