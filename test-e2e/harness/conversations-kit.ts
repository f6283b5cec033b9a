// The cast of the conversations e2e files: a platform service token that names any scope with selector headers,
// fresh workspaces with agents and customers made through identity (the conversations projection follows its
// events), and the realtime hub's path into conversations (`/internal/*`, not routed by the gateway). One per system.
import { randomBytes } from 'node:crypto'
import { signInternalPrincipal } from '@switchboard/auth'
import { mintServiceToken } from '@switchboard/cli'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { login } from './auth.ts'
import { type CallOptions, client, type Reply, until } from './http.ts'
import type { System } from './system.ts'

export interface Scope {
  tenant_id: string
  workspace_id: string
}

export const selectors = (s: Scope) => ({ 'x-tenant-id': s.tenant_id, 'x-workspace-id': s.workspace_id })

export function must<T = any>(r: Reply<T>, status: number, what: string): T {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`)
  return r.body
}

/** The hub's principal: a service of `scope`, signed as the gateway would sign it. */
export function hubPrincipal(scope: Scope, user_id = 'realtime-voice'): Principal {
  return {
    user_id,
    kind: 'service',
    roles: ['service'],
    permissions: ['*'],
    ...scope,
    session_id: '',
    jti: '',
    token_tenant_id: scope.tenant_id,
    token_workspace_id: scope.workspace_id,
  }
}

/**
 * The realtime hub's calls to conversations' `/internal/*`: straight to the service (the gateway routes no
 * internal path), with the internal principal the hub would forward, signed with the fleet's INTERNAL_SECRET.
 */
export function hubClient(serviceUrl: string, internalSecret: string, scope: Scope) {
  const direct = client(serviceUrl)
  let header: Promise<string> | undefined
  const call = async <T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
    header ??= signInternalPrincipal(internalSecret, hubPrincipal(scope), 3600)
    return direct.call<T>(method, path, { body, headers: { [PRINCIPAL_HEADER]: await header } })
  }
  return {
    call,
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body),
    /** a customer's (or, without `customer_id`, an anonymous visitor's) first message: the session with it */
    async open(content: string, customer_id?: string) {
      const r = await call('POST', '/internal/sessions', {
        sender: 'customer',
        content,
        ...(customer_id ? { customer_id } : {}),
      })
      return must<{ session: any; message: any; created: boolean; visitor: { credential: string } | null }>(
        r,
        201,
        'hub: first customer message',
      )
    },
  }
}

export interface FilePart {
  name: string
  type: string
  bytes: Uint8Array
}

/** A PNG as far as the upload check looks (its 8-byte signature), then some bytes. */
export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3,
])

/** `POST /uploads` as a browser sends it: multipart, the text fields, then the file; a token only when given. */
export async function postUpload(base: string, fields: Record<string, string>, file: FilePart, opts: CallOptions = {}) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name)
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const res = await fetch(new URL('/uploads', base), {
    method: 'POST',
    body: form,
    headers,
    signal: AbortSignal.timeout(15_000),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined } as Reply
}

/** `GET /uploads/:id` (or `…/meta`): the bytes as they came, and the error body when it is one. */
export async function getUpload(base: string, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const res = await fetch(new URL(path, base), { headers, signal: AbortSignal.timeout(15_000) })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  const json = (res.headers.get('content-type') ?? '').includes('json')
  return { status: res.status, headers: res.headers, bytes, text, body: json && text ? JSON.parse(text) : undefined }
}

export interface Agent {
  /** identity's agent record id (for /api/agents/:id/…) */
  id: string
  /** the user id: what conversations calls agent_id */
  user_id: string
  username: string
  password: string
}

/** What the kit needs of a running system: the embedded default or fleet of the e2e files, or a bench's fleet. */
export type Reachable = Pick<System, 'url' | 'env' | 'serviceUrls'>

export async function conversationsKit(system: Reachable) {
  const api = client(system.url)
  const suffix = randomBytes(3).toString('hex')
  const { token: service } = await mintServiceToken({ service: 'e2e', permissions: ['*'], env: system.env })
  const conversationsUrl = system.serviceUrls.conversations![0]!
  let n = 0

  /** A workspace of its own (registered by identity when the first record is made there). */
  const freshScope = (name: string): Scope => ({ tenant_id: `${name}${suffix}`, workspace_id: 'main' })
  /** The service token narrowed to `scope` by selectors: staff of that workspace, for the gateway. */
  const svc = (scope: Scope): CallOptions => ({ token: service, headers: selectors(scope) })
  const hub = (scope: Scope) => hubClient(conversationsUrl, system.env.INTERNAL_SECRET!, scope)

  /** A customer of `scope` with a password (a user id for sessions, a login for uploads). */
  async function customer(scope: Scope, name: string) {
    const username = `${name}_${suffix}_${++n}`
    const password = `Pw-${username}-0123456789`
    const body = must(
      await api.post(
        '/api/customers',
        { name: `${name} ${suffix}`, email: `${username}@e2e.example.com`, username, password },
        svc(scope),
      ),
      201,
      `customer ${name}`,
    )
    return { id: body.id as string, user_id: body.user_id as string, username, password }
  }

  /**
   * An agent of `scope` made through identity: a user (a new customer unless `user` is given: one user may be an
   * agent of several workspaces), promoted, optionally online.
   */
  async function agent(
    scope: Scope,
    name: string,
    opts: {
      max_concurrent?: number
      skills?: string[]
      online?: boolean
      user?: { user_id: string; username: string; password: string }
    } = {},
  ): Promise<Agent> {
    const user = opts.user ?? (await customer(scope, name))
    const created = must(
      await api.post(
        '/api/agents',
        {
          user_id: user.user_id,
          name: `${name} ${suffix}`,
          max_concurrent: opts.max_concurrent ?? 5,
          skills: opts.skills ?? [],
        },
        svc(scope),
      ),
      201,
      `agent ${name}`,
    )
    const a = { id: created.id as string, user_id: user.user_id, username: user.username, password: user.password }
    if (opts.online) await setStatus(scope, a, 'online')
    return a
  }

  async function setStatus(scope: Scope, a: Agent, status: 'online' | 'offline') {
    must(await api.post(`/api/agents/${a.id}/${status}`, undefined, svc(scope)), 200, `agent ${status}`)
  }

  /** Waits until conversations' projection counts `count` agents online in `scope` (identity's events applied). */
  async function onlineAgents(scope: Scope, count: number) {
    return until(`${count} agents online in conversations (${scope.tenant_id})`, async () => {
      const r = await api.get('/api/omni/workspace', svc(scope))
      if (r.status !== 200) throw new Error(`${r.status} ${r.text}`)
      return r.body.online_agents === count ? r.body : undefined
    })
  }

  /** The agent's own token (scoped to its workspace), through the gateway. */
  const agentLogin = (a: Agent) => login(api, a.username, a.password)

  return {
    api,
    suffix,
    service,
    conversationsUrl,
    freshScope,
    svc,
    hub,
    customer,
    agent,
    setStatus,
    onlineAgents,
    agentLogin,
  }
}
