import t from 'tap'
import { joinRole, mayPost, mayRead } from '../../src/commands/access.ts'
import type { SessionRow } from '../../src/db/sessions.repository.ts'
import { issueVisitorCredential } from '../../src/domain/visitor-credential.ts'

const base: SessionRow = {
  id: 's-1',
  tenant_id: 'acme',
  workspace_id: 'support',
  status: 'active',
  channel: 'web',
  subject: '',
  customer_id: null,
  visitor_id: null,
  visitor_secret_hash: null,
  agent_id: 'agent-1',
  ticket_id: null,
  priority: 'normal',
  message_count: 0,
  started_at: '2026-01-01T00:00:00.000Z',
  last_message_at: null,
  ended_at: null,
  updated_at: '2026-01-01T00:00:00.000Z',
}

t.test('reading: staff kinds only', async (t) => {
  t.ok(mayRead({ kind: 'agent' }))
  t.ok(mayRead({ kind: 'admin' }))
  t.ok(mayRead({ kind: 'service' }))
  t.notOk(mayRead({ kind: 'end_user' }))
})

t.test('posting: the assignee, a supervisor, admins and services', async (t) => {
  const agent = (user_id: string, permissions: string[] = ['workspace.write']) => ({
    kind: 'agent' as const,
    user_id,
    permissions,
  })
  t.ok(mayPost(agent('agent-1'), base), 'assigned')
  t.notOk(mayPost(agent('agent-2'), base), 'another agent')
  t.notOk(mayPost(agent('agent-2'), { agent_id: null }), 'nobody assigned')
  t.ok(mayPost(agent('agent-2', ['workspace.supervise']), base), 'supervisor')
  t.ok(mayPost(agent('agent-2', ['workspace.*']), base), 'workspace.* includes supervise')
  t.ok(mayPost({ kind: 'admin', user_id: 'admin-1', permissions: [] }, base))
  t.ok(mayPost({ kind: 'service', user_id: 'hub', permissions: [] }, base))
  t.notOk(mayPost({ kind: 'end_user', user_id: 'agent-1', permissions: ['*'] }, base), 'never a customer')
})

t.test('joining: owner, credential holder, assignee, supervisor or observer, service', async (t) => {
  const issued = issueVisitorCredential()
  const customerSession = { ...base, customer_id: 'cust-1' }
  const visitorSession = { ...base, visitor_id: 'v-1', visitor_secret_hash: issued.hash }
  t.equal(joinRole(customerSession, { kind: 'customer', customer_id: 'cust-1' }), 'customer')
  t.equal(joinRole(customerSession, { kind: 'customer', customer_id: 'cust-2' }), undefined)
  t.equal(joinRole(visitorSession, { kind: 'customer', customer_id: 'cust-1' }), undefined)
  t.equal(joinRole(visitorSession, { kind: 'visitor', credential: issued.credential }), 'visitor')
  t.equal(joinRole(visitorSession, { kind: 'visitor', credential: 's-1' }), undefined, 'not the session id')
  t.equal(joinRole(customerSession, { kind: 'visitor', credential: issued.credential }), undefined)
  t.equal(joinRole(base, { kind: 'agent', user_id: 'agent-1', permissions: [] }), 'agent')
  t.equal(joinRole(base, { kind: 'agent', user_id: 'agent-2', permissions: ['workspace.read'] }), 'observer')
  t.equal(joinRole(base, { kind: 'agent', user_id: 'agent-2', permissions: ['tickets.read'] }), undefined)
  t.equal(joinRole(base, { kind: 'agent', user_id: 'agent-2', permissions: ['workspace.supervise'] }), 'supervisor')
  t.equal(joinRole(base, { kind: 'agent', user_id: 'admin-1', permissions: ['*'] }), 'supervisor')
  t.equal(joinRole(base, { kind: 'service', service_id: 'ai-orchestrator' }), 'service')
})
