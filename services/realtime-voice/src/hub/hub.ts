import type { WebSocket } from '@fastify/websocket'
import { HUB_STREAM, type Principal, type SocketMode } from '@switchboard/contracts'
import type { Handler, Subscription } from '@switchboard/events'
import {
  type ConversationsClient,
  newId,
  type Scope,
  type ServiceClient,
  type ServiceContext,
} from '@switchboard/platform'
import type { RealtimeConfig } from '../config.ts'
import { isProblem, parseClientFrame } from '../domain/frame-schema.ts'
import { createHubMetrics } from '../metrics/hub.metrics.ts'
import { createConnectionStore } from '../webrtc/connections.ts'
import { handleFrame } from './dispatch.ts'
import { createEmbedPolicy } from './embed-policy.ts'
import { createFanout } from './fanout.ts'
import { errorFrame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { CLOSE, MAX_PENDING_FRAMES, overBudget } from './limits.ts'
import { createPresenceFanout } from './presence-fanout.ts'
import { type Client, createRegistry, send } from './registry.ts'
import { createSignalDelivery } from './signals.ts'
import { clusterCounts, countsIn, publishSnapshot, snapshot, withdrawSnapshot } from './stats.ts'
import { createTicketFanout } from './ticket-fanout.ts'
import { upstreamApi } from './upstream.ts'

/** Who is on the other end of an upgrade, as the route found out. */
export interface Arrival {
  /** the gateway's principal, or null for an anonymous widget visitor */
  principal: Principal | null
  /** the visitor's address (the per-principal limit counts anonymous sockets by it) */
  address: string
  query: { session_id?: string; after?: string; tenant_id?: string; workspace_id?: string; embed_origin?: string }
}

/** This replica's sockets and the fan-out that feeds them. */
export interface Hub {
  readonly replica: string
  readonly context: HubContext
  /** subscribes to conversations' events and the hub's signals (one subscription each per replica) */
  start(): Promise<void>
  /** closes every socket (1001: reconnect elsewhere and resume), stops the subscriptions; idempotent */
  close(): Promise<void>
  /** Refuses an upgrade before it happens (too many sockets for this principal), or undefined. */
  refusal(arrival: Arrival): number | undefined
  accept(socket: WebSocket, arrival: Arrival): void
  /** connected sockets in `filter` on this replica, or on every live replica (`cluster`) */
  counts(filter: Scope): ReturnType<typeof countsIn> & { replica: string }
  clusterCounts(filter: Scope): ReturnType<typeof clusterCounts>
}

const modeOf = (p: Principal | null): SocketMode =>
  !p ? 'visitor' : p.kind === 'end_user' ? 'customer' : p.kind === 'service' ? 'service' : 'console'

const keyOf = (a: Arrival) => (a.principal ? `${a.principal.kind}:${a.principal.user_id}` : `visitor:${a.address}`)

export function createHub(
  svc: Pick<ServiceContext<RealtimeConfig, unknown>, 'config' | 'log' | 'cache' | 'bus' | 'publish' | 'metrics'>,
  clients: {
    conversations: ConversationsClient
    identity: ServiceClient
    configGovernance?: ServiceClient | undefined
  },
): Hub {
  const limits = svc.config.websocket
  const metrics = createHubMetrics(svc.metrics.registry)
  const h: HubContext = {
    config: svc.config,
    log: svc.log,
    cache: svc.cache,
    bus: svc.bus,
    publish: svc.publish,
    api: upstreamApi(clients),
    registry: createRegistry(metrics.socketCounted),
    connections: createConnectionStore(svc.cache, svc.config.webrtc.state_ttl_ms),
    replica: newId(),
    embed: createEmbedPolicy(clients.configGovernance, svc.config.embed_policy_cache_ms),
  }
  const subscriptions: Subscription[] = []
  const timers: NodeJS.Timeout[] = []
  let closing: Promise<void> | undefined

  function onMessage(
    c: Client,
    data: Buffer,
    isBinary: boolean,
    framesOver: () => boolean,
    signalsOver: () => boolean,
  ) {
    if (c.closed) return
    if (framesOver() || c.pending >= MAX_PENDING_FRAMES) {
      send(c, errorFrame('REALTIME_RATE_LIMITED', `more than ${limits.max_frames_per_second} frames per second`))
      c.socket.close(CLOSE.policy, 'message rate exceeded')
      c.closed = true
      return
    }
    const parsed = isBinary ? undefined : parseClientFrame(data.toString('utf8'))
    c.pending++
    // one frame at a time, in the order they came: a join's history goes out before the next frame is handled
    c.chain = c.chain.then(async () => {
      try {
        if (c.closed) return
        if (!parsed) return send(c, errorFrame('REALTIME_INVALID_FRAME', 'frames are JSON text'))
        if (!isProblem(parsed)) return await handleFrame(h, c, parsed, signalsOver)
        if (parsed.problem === 'unknown_type') {
          return send(c, errorFrame('REALTIME_UNKNOWN_FRAME', `unknown frame type "${parsed.type.slice(0, 64)}"`))
        }
        send(c, errorFrame('REALTIME_INVALID_FRAME', parsed.message))
      } catch (err) {
        h.log.error({ err }, 'hub: frame handling failed')
      } finally {
        c.pending--
      }
    })
  }

  function heartbeat() {
    for (const c of h.registry.all()) {
      // no pong since the last ping: the peer (or the gateway's half) is gone without a close
      if (!c.alive) {
        c.socket.terminate()
        continue
      }
      c.alive = false
      c.socket.ping()
    }
  }

  return {
    replica: h.replica,
    context: h,

    // Run again by the platform after a failure (its start is retried): what is already subscribed stays, once.
    async start() {
      if (closing) return
      // in this order, each once: a retried start subscribes what is still missing
      const wanted: [string, Handler][] = [
        ['conversations.>', createFanout(h)],
        [`${HUB_STREAM.subjects[0]}`, createSignalDelivery(h)],
        ['tickets.>', createTicketFanout(h)],
        ['identity.agent.>', createPresenceFanout(h)],
      ]
      for (const [filter, handler] of wanted.slice(subscriptions.length))
        subscriptions.push(await svc.bus.subscribe(filter, handler))
      if (timers.length > 0 || closing) return
      const publish = () => publishSnapshot(h).catch((err) => h.log.warn({ err }, 'hub: stats not published'))
      await publish()
      timers.push(setInterval(publish, limits.stats_interval_ms).unref())
      timers.push(setInterval(heartbeat, limits.ping_interval_ms).unref())
    },

    close() {
      closing ??= (async () => {
        for (const t of timers.splice(0)) clearInterval(t)
        await Promise.allSettled(subscriptions.splice(0).map((s) => s.stop()))
        const open = [...h.registry.all()]
        for (const c of open) {
          c.closed = true
          c.socket.close(CLOSE.goingAway, 'server shutting down')
        }
        await Promise.allSettled(open.map((c) => c.chain))
        await withdrawSnapshot(h).catch(() => {})
      })()
      return closing
    },

    refusal(arrival) {
      const n = h.registry.socketsOf(keyOf(arrival))
      return n >= limits.max_sockets_per_principal ? limits.max_sockets_per_principal : undefined
    },

    accept(socket, arrival) {
      const mode = modeOf(arrival.principal)
      const p = arrival.principal
      const scope: Scope = p
        ? { tenant_id: p.tenant_id, workspace_id: p.workspace_id }
        : { tenant_id: arrival.query.tenant_id ?? '', workspace_id: arrival.query.workspace_id ?? '' }
      const c: Client = {
        id: newId(),
        mode,
        principal: p,
        scope,
        embedOrigin: p ? undefined : arrival.query.embed_origin,
        key: keyOf(arrival),
        socket,
        tracks: new Map(),
        current: undefined,
        chain: Promise.resolve(),
        pending: 0,
        alive: true,
        closed: closing !== undefined,
      }
      if (c.closed) return socket.close(CLOSE.goingAway, 'server shutting down')
      // checked again now: two upgrades of one principal may have passed the check before the upgrade together
      if (h.registry.socketsOf(c.key) >= limits.max_sockets_per_principal) {
        send(
          c,
          errorFrame('REALTIME_TOO_MANY_SOCKETS', `at most ${limits.max_sockets_per_principal} sockets per principal`),
        )
        return socket.close(CLOSE.policy, 'too many sockets')
      }
      h.registry.add(c)
      const framesOver = overBudget(limits.max_frames_per_second)
      const signalsOver = overBudget(limits.max_signals_per_second)
      socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(c, data, isBinary, framesOver, signalsOver))
      socket.on('pong', () => {
        c.alive = true
      })
      socket.on('close', () => {
        c.closed = true
        h.registry.remove(c)
      })
      const { session_id, after } = arrival.query
      if (session_id) {
        // `?session_id=` (with `?after=`) joins as a `join` frame would; a visitor must send its credential in one
        const frameText = JSON.stringify({ type: 'join', data: { session_id, ...(after ? { after } : {}) } })
        onMessage(c, Buffer.from(frameText), false, () => false, signalsOver)
      }
    },

    counts: (filter) => ({ replica: h.replica, ...countsIn(snapshot(h), filter) }),
    clusterCounts: (filter) => clusterCounts(h, filter),
  }
}
