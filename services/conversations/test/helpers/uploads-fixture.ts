import { createHash, randomBytes } from 'node:crypto'
import type { StorageMode } from '@switchboard/testing'
import type { Test } from 'tap'
import type { SessionRow } from '../../src/db/sessions.repository.ts'
import { as, conversationsApp, principal, servicePrincipal } from './app.ts'
import { sessionRow } from './queue.ts'

// The uploads API's fixture, shared by uploads.routes.test.ts and uploads-limits.routes.test.ts.
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)])
export const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(32)])
export const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex')

/** A multipart body as a browser would send it, serialised by Node's own fetch (undici); no extra dependency. */
export async function form(
  fields: Record<string, string>,
  file?: { name?: string; data: Uint8Array; type?: string; field?: string },
) {
  const fd = new FormData()
  for (const [k, v] of Object.entries(fields)) fd.append(k, v)
  if (file) fd.append(file.field ?? 'file', new Blob([file.data], { type: file.type ?? '' }), file.name ?? 'f.bin')
  const res = new Response(fd)
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! }
}

/** A conversations app with uploads in a test directory (4 KiB at most), its callers, two sessions and helpers. */
export async function uploadsFixture(t: Test, mode: StorageMode) {
  const { app, svc } = await conversationsApp(t, mode, {
    env: { UPLOAD_DIR: t.testdir(), UPLOAD_MAX_BYTES: '4096' },
  })
  const agent = await as(principal())
  const other = await as(principal({ user_id: 'agent-9', tenant_id: 'globex' }))
  const otherWs = await as(principal({ user_id: 'agent-8', workspace_id: 'sales' }))
  const admin = await as(principal({ user_id: 'admin-1', kind: 'admin', tenant_id: '', workspace_id: '' }))
  const hub = await as(servicePrincipal())
  const customer = await as(principal({ user_id: 'cust-1', kind: 'end_user', roles: ['customer'], permissions: [] }))
  const stranger = await as(principal({ user_id: 'cust-2', kind: 'end_user', roles: ['customer'], permissions: [] }))

  // Sessions are written straight into the table: the session routes are built elsewhere.
  const CREDENTIAL = 'visitor-credential-0123456789abcdef'
  const session = async (extra: Partial<SessionRow> = {}) => {
    const row = sessionRow({ customer_id: null, ...extra })
    await svc.db.insertInto('sessions').values(row).execute()
    return row.id
  }
  const customerSession = await session({ customer_id: 'cust-1' })
  const visitorSession = await session({ visitor_id: 'v-1', visitor_secret_hash: sha256(CREDENTIAL) })

  const upload = async (
    fields: Record<string, string>,
    file: Parameters<typeof form>[1],
    headers: Record<string, string> = agent,
  ) => {
    const body = await form(fields, file)
    return app.inject({
      method: 'POST',
      url: '/uploads',
      payload: body.payload,
      headers: { ...headers, 'content-type': body.contentType },
    })
  }
  const get = (url: string, headers: Record<string, string> = agent) => app.inject({ method: 'GET', url, headers })
  return {
    app,
    svc,
    agent,
    other,
    otherWs,
    admin,
    hub,
    customer,
    stranger,
    CREDENTIAL,
    session,
    customerSession,
    visitorSession,
    upload,
    get,
  }
}
