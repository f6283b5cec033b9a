import type { TenantFacts, WorkspaceFacts } from '@switchboard/contracts'
import { type AgentRow, agentView } from './agents.repository.ts'
import { type CustomerRow, customerView } from './customers.repository.ts'
import { settingsOf, statusOf, type TenantRow, type WorkspaceRow } from './tenants.repository.ts'
import type { UserRow } from './users.repository.ts'

// The payloads of identity's directory events (IdentityEvents in packages/contracts), one builder per record kind,
// so every command that writes a record announces it the same way. Here, not in domain/, because they map rows
// (docs/conventions.md §18: db/ owns row ↔ record mappers; domain/ imports no db/).

export function registeredFacts(user: UserRow) {
  return { user_id: user.id, username: user.username, role: user.role, name: user.name }
}

export function agentFacts(agent: AgentRow) {
  const v = agentView(agent)
  return {
    agent_id: v.id,
    user_id: v.user_id,
    name: v.name,
    department: v.department,
    skills: v.skills,
    max_concurrent: v.max_concurrent,
    status: v.status,
    rating: v.rating,
    avg_response_time: v.avg_response_time,
  }
}

export function customerFacts(customer: CustomerRow) {
  const v = customerView(customer)
  return {
    customer_id: v.id,
    user_id: v.user_id,
    name: v.name,
    source: v.source,
    tags: v.tags,
    priority: v.priority,
  }
}

export function tenantFacts(t: TenantRow): TenantFacts {
  return { tenant_id: t.id, name: t.name, status: statusOf(t), settings: settingsOf(t) }
}

export function workspaceFacts(w: WorkspaceRow): WorkspaceFacts {
  return { tenant_id: w.tenant_id, workspace_id: w.id, name: w.name, status: statusOf(w), settings: settingsOf(w) }
}
