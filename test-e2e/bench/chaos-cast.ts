// The chaos bench's cast (chaos.bench.ts): its agents online, its customers, the sessions each customer opened over
// the hub (each handed to an agent), both sides' tokens, a ticket to read and the knowledge doc AI queries find.
import { type Agent, type conversationsKit, must, type Scope } from '../harness/conversations-kit.ts'
import { createTicket } from '../harness/tickets-kit.ts'

export const CUSTOMERS = 5
const SESSIONS_PER_CUSTOMER = 2
export const AGENTS = 2
export const DOC = { title: 'Refund policy', content: 'Refunds are paid within 14 days of the return reaching us.' }

export async function chaosCast(kit: Awaited<ReturnType<typeof conversationsKit>>, scope: Scope, tag: string) {
  const svc = kit.svc(scope)
  const agents: Agent[] = []
  for (let a = 0; a < AGENTS; a++)
    agents.push(await kit.agent(scope, `chaosagent${a}`, { max_concurrent: 50, online: true }))
  await kit.onlineAgents(scope, AGENTS)
  const customers = await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => kit.customer(scope, `chaoscust${i}`)))
  const hub = kit.hub(scope)
  const sessions: Array<{ id: string; customer: number; agent: number; first: string }> = []
  for (let i = 0; i < CUSTOMERS * SESSIONS_PER_CUSTOMER; i++) {
    const customer = i % CUSTOMERS
    const agent = i % AGENTS
    const { session, message } = await hub.open(`chaos opener ${i}`, customers[customer]!.user_id)
    must(
      await kit.api.post(
        '/api/session-transfer/to-agent',
        { session_id: session.id, target_agent_id: agents[agent]!.user_id },
        svc,
      ),
      200,
      'to-agent',
    )
    sessions.push({ id: session.id, customer, agent, first: message.id })
  }
  const agentTokens = await Promise.all(agents.map(async (a) => (await kit.agentLogin(a)).token))
  const customerTokens = await Promise.all(
    customers.map(
      async (c) =>
        must(await kit.api.post('/api/v1/auth/login', { username: c.username, password: c.password }), 200, 'login')
          .token as string,
    ),
  )
  // a ticket to read, and tickets knows the ticket customer (identity's event) before the load starts
  const readMe = must(
    await createTicket(kit.api, { title: `chaos-${tag} read`, customer_id: customers[0]!.user_id }, svc),
    201,
    'ticket',
  )
  must(await kit.api.post('/api/knowledge-docs', DOC, svc), 201, 'knowledge doc')

  return { agents, customers, sessions, agentTokens, customerTokens, readMe }
}
