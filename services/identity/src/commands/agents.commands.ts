import { STAFF_ROLES } from '@switchboard/auth'
import { IdentityEvents, type Principal } from '@switchboard/contracts'
import { type Caller, concreteScope, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  type AgentPatch,
  type AgentRow,
  type AgentStatus,
  findAgentByUserInScope,
  findAgentInScope,
  insertAgent,
  setAgentStatus,
  updateAgent,
} from '../db/agents.repository.ts'
import { agentFacts } from '../db/event-facts.ts'
import { isUserVisible } from '../db/scoped-users.repository.ts'
import { findUserById, ROLES } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateAgentBody } from '../schemas/agents.schemas.ts'
import type { IdentityTx } from './identity-tx.ts'
import { listField } from './list-fields.ts'
import { setUserRole } from './revocation.ts'
import { ensureScopeForRecords } from './scope-registry.ts'

/** Both sides of a change, for the audit record. */
export interface AgentChange {
  before: AgentRow
  after: AgentRow
}

/** An agent of the caller's scope, or 404: another tenant's agent is indistinguishable from none. */
async function agentInScope(tx: IdentityTx, id: string): Promise<AgentRow> {
  const agent = await findAgentInScope(tx.db, id, tx.caller.scope)
  if (!agent) throw new IdentityErrors.AgentNotFound()
  return agent
}

/** Whether the principal's own token is unscoped (platform admin or service), whatever selectors narrowed. */
const tokenUnscoped = (p: Principal | undefined) =>
  (p?.kind === 'admin' || p?.kind === 'service') && !p.token_tenant_id && !p.token_workspace_id

/**
 * An existing user becomes an agent of the caller's workspace; a customer's role becomes `agent`. The workspace
 * must be active; an unknown one is registered when an admin or service creates the record (scope-registry.ts).
 */
export function createAgent(svc: IdentityService, caller: Caller, body: CreateAgentBody): Promise<AgentRow> {
  const scope = concreteScope(caller)
  const skills = listField('body.skills', body.skills) ?? []
  return svc.transaction(caller, async (tx) => {
    await ensureScopeForRecords(tx, scope)
    // A scoped caller may only promote users it can already see; a platform admin or service any user.
    const visible = tokenUnscoped(caller.principal) || (await isUserVisible(tx.db, body.user_id, caller.scope))
    const user = visible ? await findUserById(tx.db, body.user_id) : undefined
    if (!user) throw new IdentityErrors.UserNotFound()
    if (await findAgentByUserInScope(tx.db, user.id, scope)) throw new IdentityErrors.AgentExists()
    const agent = await insertAgent(tx.db, {
      id: newId(),
      user_id: user.id,
      ...scope,
      name: body.name ?? user.name,
      department: body.department ?? '',
      skills,
      max_concurrent: body.max_concurrent ?? 5,
      now: new Date().toISOString(),
    })
    // Role change revokes the user's tokens and emits identity.user.role_changed (revocation.ts); staff keep theirs.
    if (!STAFF_ROLES.includes(user.role)) await setUserRole(tx, user.id, ROLES.agent)
    await tx.emit(IdentityEvents.agentUpserted, agentFacts(agent))
    return agent
  })
}

/** The fields an update may change; skills as an array or a comma-separated string. */
export type AgentUpdate = Omit<AgentPatch, 'skills'> & { skills?: string | string[] | undefined }

export function updateAgentCommand(svc: IdentityService, caller: Caller, id: string, update: AgentUpdate) {
  const patch: AgentPatch = { ...update, skills: listField('body.skills', update.skills) }
  return svc.transaction(caller, async (tx): Promise<AgentChange> => {
    const before = await agentInScope(tx, id)
    const after = (await updateAgent(tx.db, id, patch, new Date().toISOString())) as AgentRow
    await tx.emit(IdentityEvents.agentUpserted, agentFacts(after))
    return { before, after }
  })
}

/** online/offline/status: an event only when the status really changed. */
export function setAgentStatusCommand(svc: IdentityService, caller: Caller, id: string, status: AgentStatus) {
  return svc.transaction(caller, async (tx): Promise<AgentChange> => {
    const before = await agentInScope(tx, id)
    if (before.status === status) return { before, after: before }
    const after = (await setAgentStatus(tx.db, id, status, new Date().toISOString())) as AgentRow
    await tx.emit(IdentityEvents.agentStatusChanged, {
      agent_id: after.id,
      user_id: after.user_id,
      status: after.status,
      previous: before.status,
    })
    return { before, after }
  })
}
