import type { Caller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { findAgentInScope } from '../db/agents.repository.ts'
import { findCustomerInScope } from '../db/customers.repository.ts'
import { isUserVisible, visibleUserIds } from '../db/scoped-users.repository.ts'
import { findUserById, type UserRow } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import type { IdentityTx } from './identity-tx.ts'
import { revokeUserTokens } from './revocation.ts'

/** Whose tokens: a user (the security surface), or the user behind an agent or customer record. */
export type TokenOwner = { user_id: string } | { agent_id: string } | { customer_id: string }

/** Both sides of a user revoke, for the audit record. */
export interface TokensRevoked {
  before: UserRow
  after: UserRow
}

/** The user whose tokens go, the reason recorded by default, and the not-found its route answers with. */
interface Resolved {
  userId: string
  reason: string
  NotFound: new () => Error
}

function found(userId: string | undefined, reason: string, NotFound: new () => Error): Resolved {
  // A missing record and one outside the caller's scope answer alike, each kind with its own not-found.
  if (userId === undefined) throw new NotFound()
  return { userId, reason, NotFound }
}

async function resolve(tx: IdentityTx, owner: TokenOwner): Promise<Resolved> {
  const scope = tx.caller.scope
  if ('agent_id' in owner) {
    const agent = await findAgentInScope(tx.db, owner.agent_id, scope)
    return found(agent?.user_id, 'agents.revoke_tokens', IdentityErrors.AgentNotFound)
  }
  if ('customer_id' in owner) {
    const customer = await findCustomerInScope(tx.db, owner.customer_id, scope)
    return found(customer?.user_id, 'customers.revoke_tokens', IdentityErrors.CustomerNotFound)
  }
  const visible = await isUserVisible(tx.db, owner.user_id, scope)
  return found(visible ? owner.user_id : undefined, 'security.user_revoke', IdentityErrors.UserNotFound)
}

/** The one revoke step the three routes and the batch share, once the user is known to be in the caller's scope. */
async function revokeResolved(tx: IdentityTx, owner: Resolved, reason: string | undefined): Promise<TokensRevoked> {
  const before = await findUserById(tx.db, owner.userId)
  const revoked = await revokeUserTokens(tx, owner.userId, reason ?? owner.reason)
  if (!before || !revoked) throw new owner.NotFound()
  return { before, after: revoked.user }
}

/**
 * Revokes every token of one user (token_version + 1, token_valid_after = now): POST
 * /api/security/users/:id/revoke-tokens, /api/agents/:id/revoke-tokens and /api/customers/:id/revoke-tokens.
 */
export function revokeUserTokensCommand(
  svc: IdentityService,
  caller: Caller,
  input: TokenOwner & { reason?: string | undefined },
): Promise<TokensRevoked> {
  return svc.transaction(caller, async (tx) => revokeResolved(tx, await resolve(tx, input), input.reason))
}

/** The batch variant: all or nothing, one id outside the scope refuses the whole batch before anything changes. */
export function revokeManyUserTokensCommand(
  svc: IdentityService,
  caller: Caller,
  input: { user_ids: readonly string[]; reason?: string | undefined },
): Promise<{ before: UserRow[]; after: UserRow[] }> {
  const ids = [...new Set(input.user_ids)]
  return svc.transaction(caller, async (tx) => {
    const visible = await visibleUserIds(tx.db, ids, tx.caller.scope)
    if (visible.size !== ids.length) throw new IdentityErrors.UserNotFound()
    const before: UserRow[] = []
    const after: UserRow[] = []
    for (const id of ids) {
      const owner = { userId: id, reason: 'security.batch_user_revoke', NotFound: IdentityErrors.UserNotFound }
      const r = await revokeResolved(tx, owner, input.reason)
      before.push(r.before)
      after.push(r.after)
    }
    return { before, after }
  })
}
