// The realtime bench's cast (realtime.bench.ts): its sizes and options, the agents, customers and sessions it
// makes through the fleet, their tokens, the posters and the delivery book every figure shares.
import { expandPermissions, signInternalPrincipal } from '@switchboard/auth'
import type { Fleet } from '@switchboard/cli'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { type Agent, conversationsKit, hubPrincipal, must } from '../harness/conversations-kit.ts'
import { decodeJwt } from '../harness/identity-kit.ts'
import { cpuMeter } from './machine.ts'
import { deliveryBook, poster, type Socket } from './realtime-load.ts'

export const CUSTOMERS = 10
export const SESSIONS_PER_CUSTOMER = 10
export const AGENTS = 2
export const SESSIONS = CUSTOMERS * SESSIONS_PER_CUSTOMER
/** every session is posted to by its agent; its frames reach its customer's socket and the agent's two consoles */
export const RECEIVERS_PER_MESSAGE = 3

export interface RealtimeOptions {
  /** seconds per steady-rate phase of figure 1 */
  durationS: number
  /**
   * message POST rates (per second) of figure 1; empty: measured — first the maximum (offered `saturateRate`, at
   * most 256 in flight: what is accepted is the most the path takes), then 50 % and 80 % of it
   */
  rates: number[]
  saturateRate?: number
  /** posts per second of figure 2 (each reaches every one of its sockets) */
  fanoutRate: number
  fanoutSockets: number
  idleSockets: number
}
/** The principal the gateway signs for an agent's token (its kind, roles, permissions and scope). */
export function principalOf(token: string): Principal {
  const c = decodeJwt(token).payload as Record<string, any>
  return {
    user_id: c.sub,
    kind: 'agent',
    roles: c.roles,
    permissions: expandPermissions(c.roles, c.permissions ?? []),
    tenant_id: c.tenant_id,
    workspace_id: c.workspace_id,
    session_id: c.session_id ?? '',
    jti: c.jti,
    token_tenant_id: c.tenant_id,
    token_workspace_id: c.workspace_id,
  }
}

/** The cast of every figure, made through the fleet; `n` numbers the messages posted so far across the figures. */
export async function castOf(
  fleet: Fleet,
  env: NodeJS.ProcessEnv,
  opts: RealtimeOptions,
  open: Socket[],
  closeAll: () => void,
) {
  const gateways = fleet.gatewayUrls
  const hubs = fleet.serviceUrls['realtime-voice']!
  const kit = await conversationsKit({ url: gateways[0]!, env: fleet.env, serviceUrls: fleet.serviceUrls })
  const scope = kit.freshScope('benchrt')
  const internalSecret = env.INTERNAL_SECRET!

  // The cast: two agents holding 50 sessions each, ten customers with ten sessions each.
  const agents: Agent[] = []
  for (let a = 0; a < AGENTS; a++)
    agents.push(await kit.agent(scope, `rtagent${a}`, { max_concurrent: 100, online: true }))
  await kit.onlineAgents(scope, AGENTS)
  const customers = await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => kit.customer(scope, `rtcust${i}`)))
  const hub = kit.hub(scope)
  const sessions: { id: string; customer: number; agent: number }[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const customer = i % CUSTOMERS
    const agent = i % AGENTS
    const { session } = await hub.open(`bench question ${i}`, customers[customer]!.user_id)
    must(
      await kit.api.post(
        '/api/session-transfer/to-agent',
        { session_id: session.id, target_agent_id: agents[agent]!.user_id },
        kit.svc(scope),
      ),
      200,
      'to-agent',
    )
    sessions.push({ id: session.id, customer, agent })
  }
  const agentTokens = await Promise.all(agents.map(async (a) => (await kit.agentLogin(a)).token))
  const customerTokens = await Promise.all(
    customers.map(
      async (c) =>
        (await kit.api.post('/api/v1/auth/login', { username: c.username, password: c.password })).body.token as string,
    ),
  )
  const protocols = (token: string) => ({ protocols: ['switchboard.v1', `bearer.${token}`] })
  // posters[agent][gateway]
  const posters = agents.map((_, a) => gateways.map((g) => poster(g, agentTokens[a]!)))
  const book = deliveryBook()
  const cpu = cpuMeter(fleet)
  const statsHeader = { [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, hubPrincipal(scope), 3600) }
  /** sockets of the bench's scope on each hub replica (its own count, not the cluster's) */
  const perReplica = () =>
    Promise.all(
      hubs.map(async (h) => {
        const r = await fetch(new URL('/api/v1/ws/stats', h), { headers: statsHeader })
        return ((await r.json()) as { connected_clients: number }).connected_clients
      }),
    )

  return {
    fleet,
    opts,
    open,
    closeAll,
    gateways,
    hubs,
    scope,
    internalSecret,
    sessions,
    agentTokens,
    customerTokens,
    protocols,
    posters,
    book,
    cpu,
    perReplica,
    n: 0,
  }
}

export type Cast = Awaited<ReturnType<typeof castOf>>
