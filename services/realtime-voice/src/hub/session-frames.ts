import { newId, type Scope } from '@switchboard/platform'
import { handoffWord } from '../domain/handoff.ts'
import { SeqWindow } from '../domain/seq-window.ts'
import { errorFrame, frame } from './frames.ts'
import type { HubContext } from './hub-context.ts'
import { type Client, release, type SessionView, send, type Track } from './registry.ts'
import { resume } from './resume.ts'
import { type Party, RefusedError, type UpstreamSession } from './upstream.ts'

/**
 * `join`, `leave`, `text-message` and `transfer-request`: what a socket asks of its sessions, each turned into a
 * call to conversations. A refusal is thrown as RefusedError and reaches the client as an `error` frame.
 */

/** Anything refused is answered as a missing session would be (README): never a hint that it exists. */
export const notFound = (sessionId: string) =>
  new RefusedError({ status: 404, code: 'CONVERSATIONS_SESSION_NOT_FOUND', message: `session ${sessionId} not found` })

export const refused = (code: string, message: string, status = 400) => new RefusedError({ status, code, message })

export const viewOf = (s: UpstreamSession): SessionView => ({
  id: s.id,
  tenant_id: s.tenant_id,
  workspace_id: s.workspace_id,
  status: s.status,
  agent_id: s.agent_id,
  customer_id: s.customer_id,
  visitor_id: s.visitor_id,
})

const scopeOfSession = (s: SessionView): Scope => ({ tenant_id: s.tenant_id, workspace_id: s.workspace_id })

/** How the socket's principal asks conversations for access. */
function partyOf(c: Client, credential: string | undefined): Party {
  const p = c.principal
  if (c.mode === 'visitor' || !p) return { visitor_credential: credential ?? '' }
  if (c.mode === 'customer') return { customer_id: p.user_id }
  if (c.mode === 'console') return { agent_user_id: p.user_id, permissions: p.permissions }
  return { service_id: p.user_id }
}

/** `join {session_id, visitor_credential?, after?}`: conversations says who may; then history (resume), then live. */
export async function join(
  h: HubContext,
  c: Client,
  sessionId: string,
  opts: { credential?: string | undefined; after?: string | undefined },
): Promise<void> {
  // a bare session id proves nothing for an anonymous visitor: not even worth asking
  if (c.mode === 'visitor' && !opts.credential) throw notFound(sessionId)
  const { track, fresh } = h.registry.hold(c, sessionId)
  // what a console following the session (assigned to its agent) was sent on this socket before it joined
  const sentBefore = track.sent
  try {
    const { session, role } = await h.api.access(sessionId, partyOf(c, opts.credential), c.scope)
    // a visitor rejoining from a page its scope does not list gets nothing of the session
    if (c.mode === 'visitor') await h.embed.check(scopeOfSession(viewOf(session)), c.embedOrigin)
    track.session = viewOf(session)
    track.role = role
    if (opts.credential) track.credential = opts.credential
    c.current = sessionId
    send(
      c,
      frame('session', { session_id: session.id, status: session.status, agent_id: session.agent_id }, session.id),
    )
    // live from now: what was posted before the access answer is the history's, not the live stream's (a resume
    // moves the window to the end of the history it sent)
    if (fresh) track.sent = new SeqWindow(session.message_count)
    if (opts.after !== undefined) await resume(h, c, track, opts.after, c.scope, sentBefore)
  } catch (err) {
    if (fresh && track.role === 'pending') h.registry.leave(c, sessionId)
    else release(c, track)
    throw err
  }
  release(c, track)
}

export function leave(h: HubContext, c: Client, sessionId: string | undefined): void {
  if (sessionId) h.registry.leave(c, sessionId)
}

/** The joined session a frame names (or the socket's current one), for what only members may do. */
export function joinedTrack(c: Client, sessionId: string | undefined): Track {
  const id = sessionId ?? c.current
  if (!id) throw refused('REALTIME_SESSION_REQUIRED', 'name the session (session_id) or join one first')
  const track = c.tracks.get(id)
  if (!track || track.role === 'pending' || (!track.joined && c.mode !== 'console')) {
    throw refused('REALTIME_NOT_JOINED', `this socket has not joined session ${id}`, 409)
  }
  return track
}

/** `text-message` from a customer or visitor: posted as theirs; the first one starts their session. */
export async function customerMessage(
  h: HubContext,
  c: Client,
  sessionId: string | undefined,
  m: { content: string; metadata?: Record<string, unknown> },
): Promise<void> {
  const id = sessionId ?? c.current
  const who = c.mode === 'customer' ? { customer_id: c.principal!.user_id } : {}
  let session: UpstreamSession
  if (id === undefined) {
    session = await startSession(h, c, { ...m, ...who })
  } else {
    const track = joinedTrack(c, id)
    const credential = c.mode === 'visitor' ? { visitor_credential: track.credential ?? '' } : {}
    session = (await h.api.postCustomer(id, { ...m, ...who, ...credential }, scopeOfSession(track.session))).session
    Object.assign(track.session, { status: session.status, agent_id: session.agent_id })
  }
  const word = handoffWord(m.content)
  // already with a human, or waiting for one: asking again would only say so
  if (word && session.agent_id === null && session.status === 'active') {
    await h.api.toHuman(session.id, `the customer asked for a human ("${word}")`, scopeOfSession(viewOf(session)))
  }
}

/**
 * A first message without a session: the session is created with an id chosen here, so the socket listens on it
 * before conversations publishes anything of it. An anonymous visitor's widget scope must take visitors
 * (identity's rule), and the visitor gets its credential once, in the `session` frame.
 */
async function startSession(
  h: HubContext,
  c: Client,
  m: { content: string; metadata?: Record<string, unknown>; customer_id?: string },
): Promise<UpstreamSession> {
  if (c.mode === 'visitor') {
    if (!c.scope.tenant_id || !c.scope.workspace_id) {
      throw refused(
        'REALTIME_WIDGET_SCOPE_REQUIRED',
        "a visitor's first message needs the widget's tenant_id and workspace_id",
      )
    }
    await h.api.widgetScope(c.scope)
    await h.embed.check(c.scope, c.embedOrigin)
  }
  const id = newId()
  const { track } = h.registry.hold(c, id)
  try {
    const result = await h.api.createSession(id, m, c.scope)
    track.session = viewOf(result.session)
    track.role = c.mode === 'visitor' ? 'visitor' : 'customer'
    if (result.visitor) track.credential = result.visitor.credential
    // every message of a new session is this socket's, its first one included
    track.sent = new SeqWindow(0)
    c.current = id
    const { session } = result
    send(
      c,
      frame(
        'session',
        { session_id: id, status: session.status, agent_id: null, visitor: result.visitor ?? undefined },
        id,
      ),
    )
    release(c, track)
    return session
  } catch (err) {
    h.registry.leave(c, id)
    throw err
  }
}

/**
 * `text-message` from a console: posted as the agent, so conversations applies its posting rule to them; with
 * `internal: true` a note (conversations' rule for notes: any staff of the scope).
 */
export async function agentMessage(
  h: HubContext,
  c: Client,
  sessionId: string | undefined,
  m: { content: string; metadata?: Record<string, unknown>; internal?: boolean },
): Promise<void> {
  const id = sessionId ?? c.current
  if (!id) throw refused('REALTIME_SESSION_REQUIRED', 'name the session (session_id) or join one first')
  await h.api.postAgent(c.principal!, id, m)
}

/** `transfer-request {reason?}`: the customer asks for a human (conversations queues or assigns). */
export async function transferRequest(
  h: HubContext,
  c: Client,
  sessionId: string | undefined,
  reason: string | undefined,
) {
  const track = joinedTrack(c, sessionId)
  await h.api.toHuman(track.session.id, reason || 'the customer asked for a human', scopeOfSession(track.session))
}

/** What a refusal looks like on the socket. */
export const refusalFrame = (err: RefusedError, sessionId: string | null) =>
  errorFrame(err.refusal.code, err.refusal.message, sessionId)
