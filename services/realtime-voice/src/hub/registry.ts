import type { WebSocket } from '@fastify/websocket'
import type { Principal, SocketMode } from '@switchboard/contracts'
import { inScope, type Scope, stepTraced, tracedStep } from '@switchboard/platform'
import { SeqWindow } from '../domain/seq-window.ts'
import { type OutFrame, wire } from './frames.ts'

/** What the hub knows of a session a socket is in: from conversations' answer, then kept fresh by its events. */
export interface SessionView {
  id: string
  tenant_id: string
  workspace_id: string
  status: string
  agent_id: string | null
  customer_id: string | null
  visitor_id: string | null
}

/**
 * One socket in one session. `joined`: through `join` (or its first message) with conversations' access answer;
 * otherwise a console following a session assigned to its agent. While `buffer` is set the session's frames are
 * held (a join still being checked, or a resume sending history first) and flushed in order after.
 */
export interface Track {
  session: SessionView
  joined: boolean
  /** conversations' answer: customer, visitor, agent, supervisor, service */
  role: string
  /** an anonymous visitor's proof, sent with its messages */
  credential?: string
  sent: SeqWindow
  buffer: OutFrame[] | null
}

export interface Client {
  id: string
  mode: SocketMode
  principal: Principal | null
  /** the principal's scope; a visitor's is the widget's (query `tenant_id`, `workspace_id`), possibly empty */
  scope: Scope
  /** a visitor's page origin as its widget said (`?embed_origin=`), checked against the scope's allowed origins */
  embedOrigin: string | undefined
  /** what the per-principal socket limit counts by: the user, or the visitor's address */
  key: string
  socket: WebSocket
  tracks: Map<string, Track>
  /** the session a frame without `session_id` means: the one joined or started last */
  current: string | undefined
  /** frames handled one after another, in the order they came */
  chain: Promise<void>
  pending: number
  alive: boolean
  closed: boolean
}

/** A session before conversations described it: nothing is sent from it until then (its frames are held). */
const UNKNOWN_SESSION: SessionView = {
  id: '',
  tenant_id: '',
  workspace_id: '',
  status: '',
  agent_id: null,
  customer_id: null,
  visitor_id: null,
}

/** Consoles follow at most this many sessions they did not join (the oldest followed is let go first). */
const MAX_FOLLOWED = 1000

/**
 * This replica's sockets, by session (joined), by agent (consoles) and by principal; nothing of it is shared with
 * other replicas (README: membership is per replica). `counted` hears each socket taken (+1) and let go (-1), once.
 */
export function createRegistry(counted: (kind: SocketMode, delta: 1 | -1) => void = () => {}) {
  const clients = new Set<Client>()
  const bySession = new Map<string, Set<Client>>()
  const byAgent = new Map<string, Set<Client>>()
  const perKey = new Map<string, number>()

  const addTo = <K>(index: Map<K, Set<Client>>, key: K, c: Client) => {
    const set = index.get(key) ?? new Set<Client>()
    index.set(key, set)
    set.add(c)
  }
  const removeFrom = <K>(index: Map<K, Set<Client>>, key: K, c: Client) => {
    const set = index.get(key)
    if (!set) return
    set.delete(c)
    if (set.size === 0) index.delete(key)
  }

  return {
    get size() {
      return clients.size
    },
    all: () => clients.values(),
    socketsOf: (key: string) => perKey.get(key) ?? 0,

    add(c: Client) {
      if (clients.has(c)) return
      clients.add(c)
      counted(c.mode, 1)
      perKey.set(c.key, (perKey.get(c.key) ?? 0) + 1)
      if (c.mode === 'console' && c.principal) addTo(byAgent, c.principal.user_id, c)
    },

    remove(c: Client) {
      if (!clients.delete(c)) return
      counted(c.mode, -1)
      const n = (perKey.get(c.key) ?? 1) - 1
      if (n > 0) perKey.set(c.key, n)
      else perKey.delete(c.key)
      if (c.principal) removeFrom(byAgent, c.principal.user_id, c)
      for (const [sessionId, track] of c.tracks) if (track.joined) removeFrom(bySession, sessionId, c)
      c.tracks.clear()
    },

    /**
     * Joins `c` to a session with its frames held (until `release`), before anyone has said it may: what happens
     * while conversations is asked is then kept, not missed; on a refusal `leave` drops it unseen. `fresh`: the
     * socket was not in the session before (a refusal then takes it out again).
     */
    hold(c: Client, sessionId: string): { track: Track; fresh: boolean } {
      const existing = c.tracks.get(sessionId)
      if (existing?.joined) {
        existing.buffer ??= []
        return { track: existing, fresh: false }
      }
      const track: Track = existing ?? {
        session: { ...UNKNOWN_SESSION, id: sessionId },
        joined: true,
        role: 'pending',
        sent: new SeqWindow(),
        buffer: null,
      }
      // a console that followed the session joins it like anyone else: refused, it stops following it
      track.joined = true
      track.role = 'pending'
      track.buffer = []
      c.tracks.set(sessionId, track)
      addTo(bySession, sessionId, c)
      return { track, fresh: true }
    },

    leave(c: Client, sessionId: string) {
      c.tracks.delete(sessionId)
      removeFrom(bySession, sessionId, c)
      if (c.current === sessionId) c.current = undefined
    },

    /** The sockets joined to a session on this replica. */
    members: (sessionId: string): ReadonlySet<Client> => bySession.get(sessionId) ?? new Set(),

    /** The console sockets of an agent (user id) whose scope holds `scope`. */
    consolesOf(agentId: string | null, scope: Scope): Client[] {
      if (!agentId) return []
      return [...(byAgent.get(agentId) ?? [])].filter((c) => inScope(scope, c.scope))
    },

    /** Every console whose scope holds `scope` (queue notifications). */
    consolesIn(scope: Scope): Client[] {
      const out: Client[] = []
      for (const set of byAgent.values()) for (const c of set) if (inScope(scope, c.scope)) out.push(c)
      return out
    },

    /** The track a console follows an assigned session by, made when its first frame comes. */
    follow(c: Client, session: SessionView): Track {
      let t = c.tracks.get(session.id)
      if (t) return t
      if (c.tracks.size >= MAX_FOLLOWED) {
        for (const [id, old] of c.tracks) {
          if (old.joined) continue
          c.tracks.delete(id)
          break
        }
      }
      // live from this frame on: what came before it was not this console's to see here
      t = { session, joined: false, role: 'agent', sent: new SeqWindow(), buffer: null }
      c.tracks.set(session.id, t)
      return t
    },

    sessionsWithSockets: () => bySession.size,
  }
}

export type Registry = ReturnType<typeof createRegistry>

/**
 * Sends a frame to one socket in one session: held while the track buffers, dropped when its message was sent
 * already (a redelivered event, or one that raced a resume's history).
 */
export function deliver(c: Client, track: Track | undefined, f: OutFrame): void {
  if (c.closed) return
  if (track?.buffer) {
    track.buffer.push(f)
    return
  }
  if (f.staffOnly && !isStaff(c)) {
    // a note's position is passed over, so the customer's window stays closed up behind it (no gap held open)
    if (track && f.seq !== undefined) track.sent.offer(f.seq)
    return
  }
  if (track && f.seq !== undefined && !track.sent.offer(f.seq)) return
  send(c, f)
}

/** Consoles (agents, supervisors, admins) and services see internal notes; customers and visitors never. */
export const isStaff = (c: Pick<Client, 'mode'>) => c.mode === 'console' || c.mode === 'service'

/**
 * A socket whose peer reads slower than its sessions talk (the gateway stops reading a client that does) holds
 * at most this much unsent: past it the socket is dropped, and the client resumes from its last message when it
 * reconnects, rather than the replica's memory growing without bound.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024
/** how every frame is sent (one object for all) */
const TEXT_FRAME = { binary: false }

/** Sends a frame as it is (answers to the socket's own frames: `pong`, `error`, `session`). */
export function send(c: Client, f: OutFrame): void {
  if (c.closed || c.socket.readyState !== c.socket.OPEN) return
  // the last door: whatever path a note's frame took, it never goes out on a customer's or visitor's socket
  if (f.staffOnly && !isStaff(c)) return
  if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    c.closed = true
    c.socket.terminate()
    return
  }
  // with tracing on, the frame is a span of the delivery that caused it (the hub's last step of a request's trace);
  // untraced (nearly every frame), no attributes and no closure are built for it
  if (!stepTraced()) {
    c.socket.send(wire(f), TEXT_FRAME)
    return
  }
  tracedStep('hub frame', { 'switchboard.frame.type': f.type, 'switchboard.socket.mode': c.mode }, () =>
    c.socket.send(wire(f), TEXT_FRAME),
  )
}

/** Ends a track's buffering: its frames go out in the order they came, what was sent already skipped. */
export function release(c: Client, track: Track): void {
  const held = track.buffer ?? []
  track.buffer = null
  for (const f of held) deliver(c, track, f)
}
