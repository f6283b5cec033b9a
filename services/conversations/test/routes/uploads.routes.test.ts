import { createHash, randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { newId } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal, servicePrincipal } from '../helpers/app.ts'

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)])
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(32)])
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex')

/** A multipart body as a browser would send it, serialised by Node's own fetch (undici); no extra dependency. */
async function form(
  fields: Record<string, string>,
  file?: { name?: string; data: Uint8Array; type?: string; field?: string },
) {
  const fd = new FormData()
  for (const [k, v] of Object.entries(fields)) fd.append(k, v)
  if (file) fd.append(file.field ?? 'file', new Blob([file.data], { type: file.type ?? '' }), file.name ?? 'f.bin')
  const res = new Response(fd)
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! }
}

inEachStorageMode(t, 'uploads', async (t, mode) => {
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
  const session = async (extra: Record<string, unknown> = {}) => {
    const now = new Date().toISOString()
    const id = newId()
    await svc.db
      .insertInto('sessions')
      .values({
        id,
        tenant_id: 'acme',
        workspace_id: 'support',
        status: 'active',
        channel: 'web',
        subject: '',
        customer_id: null,
        visitor_id: null,
        visitor_secret_hash: null,
        agent_id: null,
        ticket_id: null,
        priority: 'normal',
        message_count: 0,
        started_at: now,
        last_message_at: null,
        ended_at: null,
        updated_at: now,
        ...extra,
      })
      .execute()
    return id
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

  t.test('an agent uploads an image; its bytes, headers and metadata come back', async (t) => {
    const res = await upload(
      { session_id: customerSession },
      { name: '../../etc/scr:een\u0007shot.PNG', data: PNG, type: 'image/png' },
    )
    t.equal(res.statusCode, 201, res.body)
    const meta = res.json()
    t.match(meta, {
      filename: 'screenshot.PNG',
      content_type: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
      session_id: customerSession,
      url: `/uploads/${meta.id}`,
    })
    t.match(meta.id, /^[0-9a-f-]{36}$/)

    const got = await get(meta.url)
    t.equal(got.statusCode, 200)
    t.ok(got.rawPayload.equals(PNG), 'byte-exact')
    t.match(got.headers, {
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'content-disposition': `inline; filename="screenshot.PNG"; filename*=UTF-8''screenshot.PNG`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-cache',
    })
    const m = await get(`${meta.url}/meta`)
    t.equal(m.statusCode, 200)
    t.same(m.json(), meta)

    const stored = await svc.blobs.get(meta.id)
    t.ok(Buffer.from(stored!).equals(PNG), `kept by the ${svc.blobs.kind} store`)
    t.equal(svc.blobs.kind, mode === 'sqlite' ? 'file' : 'database')
  })

  t.test('a pdf downloads as an attachment; text keeps its declared type; a unicode name survives', async (t) => {
    const pdf = await upload(
      { session_id: customerSession },
      { name: 'Rechnung März.pdf', data: PDF, type: 'application/pdf' },
    )
    t.equal(pdf.statusCode, 201, pdf.body)
    const got = await get(pdf.json().url)
    t.equal(
      got.headers['content-disposition'],
      `attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
    )
    const text = await upload(
      { session_id: customerSession },
      { name: 'notes.txt', data: Buffer.from('hello\n'), type: 'text/plain; charset=utf-8' },
    )
    t.equal(text.statusCode, 201, text.body)
    t.equal(text.json().content_type, 'text/plain')
    t.equal((await get(text.json().url)).headers['content-disposition']?.split(';')[0], 'attachment')
  })

  t.test('who may upload and read: scope staff, the customer, the visitor with its credential', async (t) => {
    const file = { name: 'a.png', data: PNG, type: 'image/png' }
    for (const [who, headers] of [
      ['admin', admin],
      ['service', hub],
      ['customer', customer],
    ] as const) {
      const res = await upload({ session_id: customerSession }, file, headers)
      t.equal(res.statusCode, 201, `${who} uploads`)
      t.equal((await get(res.json().url, headers)).statusCode, 200, `${who} reads`)
    }
    for (const [who, headers] of [
      ['another tenant', other],
      ['another workspace', otherWs],
      ['another customer', stranger],
      ['anonymous', {}],
    ] as const) {
      const res = await upload({ session_id: customerSession }, file, headers)
      t.equal(res.statusCode, 404, `${who} may not upload`)
      t.match(res.json(), { code: 'CONVERSATIONS_SESSION_NOT_FOUND' })
    }
    const missing = await upload({ session_id: 'no-such-session' }, file)
    t.equal(missing.statusCode, 404, 'a missing session answers the same')
    t.same(
      { ...missing.json(), request_id: '', message: '' },
      { ...(await upload({ session_id: customerSession }, file, other)).json(), request_id: '', message: '' },
    )

    const byAgent = (await upload({ session_id: customerSession }, file)).json()
    for (const [who, headers] of [
      ['another tenant', other],
      ['another workspace', otherWs],
      ['another customer', stranger],
      ['anonymous', {}],
    ] as const) {
      t.equal((await get(byAgent.url, headers)).statusCode, 404, `${who} may not read`)
      t.equal((await get(`${byAgent.url}/meta`, headers)).statusCode, 404, `${who} may not read the metadata`)
    }
    t.equal((await get(`/uploads/${newId()}`)).statusCode, 404, 'a missing upload')
    t.equal((await get('/uploads/../../etc/passwd')).statusCode, 404, 'no route out of /uploads')
    t.equal((await get('/uploads/not-an-id')).statusCode, 400, 'ids are UUIDs')
  })

  t.test('an anonymous visitor uploads and reads with its credential', async (t) => {
    const file = { name: 'a.png', data: PNG, type: 'image/png' }
    const res = await upload({ session_id: visitorSession, visitor_credential: CREDENTIAL }, file, {})
    t.equal(res.statusCode, 201, res.body)
    const { url } = res.json()
    t.equal((await upload({ session_id: visitorSession, visitor_credential: 'wrong' }, file, {})).statusCode, 404)
    t.equal((await upload({ session_id: visitorSession }, file, {})).statusCode, 404, 'no credential')
    t.equal(
      (await upload({ session_id: customerSession, visitor_credential: CREDENTIAL }, file, {})).statusCode,
      404,
      'the credential opens its own session only',
    )
    t.equal((await get(url, { 'x-visitor-credential': CREDENTIAL })).statusCode, 200, 'in the header')
    t.equal((await get(`${url}/meta`, { 'x-visitor-credential': CREDENTIAL })).statusCode, 200)
    for (const path of [url, `${url}/meta`]) {
      const inUrl = await get(`${path}?visitor_credential=${CREDENTIAL}`, {})
      t.equal(inUrl.statusCode, 400, 'never in the URL, where logs and histories keep it')
      t.match(inUrl.json(), { code: 'VALIDATION_FAILED', message: /^querystring\.visitor_credential: .*header/ })
    }
    t.equal((await get(url, { 'x-visitor-credential': 'wrong' })).statusCode, 404)
    t.equal((await get(url, {})).statusCode, 404)
    t.equal((await get(url)).statusCode, 200, 'the agents of the scope read it too')
    const owner = await svc.db
      .selectFrom('uploads')
      .select('owner_id')
      .where('id', '=', url.split('/').pop())
      .executeTakeFirstOrThrow()
    t.equal(owner.owner_id, 'visitor:v-1')
  })

  t.test('the fields come before the file: access is decided on them as the file begins', async (t) => {
    const send = async (fd: FormData) => {
      const res = new Response(fd)
      return app.inject({
        method: 'POST',
        url: '/uploads',
        payload: Buffer.from(await res.arrayBuffer()),
        headers: { ...agent, 'content-type': res.headers.get('content-type')! },
      })
    }
    const first = new FormData()
    first.append('file', new Blob([PNG], { type: 'image/png' }), 'first.png')
    first.append('session_id', customerSession)
    const fileFirst = await send(first)
    t.equal(fileFirst.statusCode, 400)
    t.match(fileFirst.json(), { code: 'VALIDATION_FAILED', message: 'body.session_id: is required, before the file' })
    const after = new FormData()
    after.append('session_id', customerSession)
    after.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png')
    after.append('visitor_credential', CREDENTIAL)
    const late = await send(after)
    t.equal(late.statusCode, 400)
    t.match(late.json(), { message: 'body.visitor_credential: fields come before the file' })
    const kept = await svc.db.selectFrom('uploads').select('id').where('filename', '=', 'first.png').execute()
    t.equal(kept.length, 0, 'nothing kept')
  })

  t.test('a form the parser cannot take apart is a 400, never a 500', async (t) => {
    const raw = (parts: Array<{ name: string; filename?: string; body: Buffer | string }>) =>
      Buffer.concat([
        ...parts.flatMap((p) => [
          Buffer.from(
            `--XB\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n`,
          ),
          Buffer.from(p.body),
          Buffer.from('\r\n'),
        ]),
        Buffer.from('--XB--\r\n'),
      ])
    const post = (payload: Buffer, type = 'multipart/form-data; boundary=XB') =>
      app.inject({ method: 'POST', url: '/uploads', payload, headers: { ...agent, 'content-type': type } })
    const session = { name: 'session_id', body: customerSession }
    const png = { name: 'file', filename: 'a.png', body: PNG }
    const cases: Array<[string, Promise<{ statusCode: number; json(): any }>, string]> = [
      [
        'no boundary',
        post(raw([session, png]), 'multipart/form-data'),
        'body: not a well-formed multipart/form-data body',
      ],
      ['two files', post(raw([session, png, { ...png, filename: 'b.png' }])), 'body.file: one file per request'],
      [
        'more fields than the form has, then the file',
        post(raw([session, ...['x1', 'x2', 'x3', 'x4'].map((name) => ({ name, body: 'a' })), png])),
        'body.x1: is not a field of this form',
      ],
      [
        'more fields than the parser takes',
        post(raw([session, ...Array.from({ length: 6 }, () => ({ name: 'visitor_credential', body: 'a' })), png])),
        'body.visitor_credential: must appear once',
      ],
      [
        'a file part without a file name',
        post(raw([session, { name: 'file', body: PNG }])),
        'body.file: must be a file',
      ],
      ['a body cut short', post(raw([session, png]).subarray(0, 120)), 'body.file: a file is required'],
    ]
    for (const [what, pending, message] of cases) {
      const res = await pending
      t.equal(res.statusCode, 400, what)
      t.match(res.json(), { code: 'VALIDATION_FAILED', message: new RegExp(`^${message.replace('.', '\\.')}`) }, what)
    }
  })

  t.test('a caller who may not use the session is answered before the file is read', async (t) => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = new URL(address)
    // the fields, then a file that has begun and does not end: only an answer on the fields can come back
    const head = Buffer.from(
      `--XB\r\nContent-Disposition: form-data; name="session_id"\r\n\r\n${customerSession}\r\n` +
        `--XB\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    )
    const answer = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/uploads',
            headers: { ...headers, 'content-type': 'multipart/form-data; boundary=XB' },
          },
          (res) => {
            let body = ''
            res.on('data', (c) => {
              body += c
            })
            res.on('end', () => {
              req.destroy()
              resolve({ status: res.statusCode ?? 0, body })
            })
          },
        )
        req.on('error', () => {})
        const timer = setTimeout(() => {
          req.destroy()
          reject(new Error('no answer while the file was still coming'))
        }, 3000)
        req.on('close', () => clearTimeout(timer))
        req.write(head)
        req.write(PNG)
      })
    const denied = await answer(other)
    t.equal(denied.status, 404, 'refused on the fields alone')
    t.match(JSON.parse(denied.body), { code: 'CONVERSATIONS_SESSION_NOT_FOUND' })
    t.equal((await answer({})).status, 404, 'an anonymous caller without a credential too')
  })

  t.test('a session holds at most UPLOAD_MAX_PER_SESSION files: then 409', async (t) => {
    const limited = await conversationsApp(t, mode, { env: { UPLOAD_DIR: t.testdir(), UPLOAD_MAX_PER_SESSION: '3' } })
    const sessionId = newId()
    const now = new Date().toISOString()
    await limited.svc.db
      .insertInto('sessions')
      .values({
        id: sessionId,
        tenant_id: 'acme',
        workspace_id: 'support',
        status: 'active',
        channel: 'web',
        subject: '',
        customer_id: 'cust-1',
        visitor_id: null,
        visitor_secret_hash: null,
        agent_id: null,
        ticket_id: null,
        priority: 'normal',
        message_count: 0,
        started_at: now,
        last_message_at: null,
        ended_at: null,
        updated_at: now,
      })
      .execute()
    const send = async () => {
      const body = await form({ session_id: sessionId }, { name: 'a.png', data: PNG, type: 'image/png' })
      return limited.app.inject({
        method: 'POST',
        url: '/uploads',
        payload: body.payload,
        headers: { ...agent, 'content-type': body.contentType },
      })
    }
    // at once: the quota is counted under the session's lock, so the last places are not taken twice
    const statuses = (await Promise.all(Array.from({ length: 5 }, send))).map((r) => r.statusCode).sort()
    t.same(statuses, [201, 201, 201, 409, 409])
    const over = await send()
    t.equal(over.statusCode, 409)
    t.match(over.json(), { code: 'CONVERSATIONS_UPLOAD_QUOTA', error: 'conflict' })
    const kept = await limited.svc.db.selectFrom('uploads').select('id').where('session_id', '=', sessionId).execute()
    t.equal(kept.length, 3)
  })

  t.test('a file is saved under its type’s extension; only a matching name shows inline', async (t) => {
    const res = await upload({ session_id: customerSession }, { name: 'evil.html', data: PNG, type: 'image/png' })
    t.equal(res.statusCode, 201, res.body)
    t.equal(res.json().filename, 'evil.html', 'the name is kept as sent')
    const got = await get(res.json().url)
    t.equal(got.headers['content-disposition'], `attachment; filename="evil.html.png"; filename*=UTF-8''evil.html.png`)
  })

  t.test('size over the limit is 413, after access; exactly the limit is kept', async (t) => {
    const big = Buffer.concat([PNG, Buffer.alloc(4096)])
    const res = await upload({ session_id: customerSession }, { name: 'big.png', data: big, type: 'image/png' })
    t.equal(res.statusCode, 413)
    t.match(res.json(), { code: 'CONVERSATIONS_UPLOAD_TOO_LARGE', error: 'payload_too_large' })
    const denied = await upload(
      { session_id: customerSession },
      { name: 'big.png', data: big, type: 'image/png' },
      other,
    )
    t.equal(denied.statusCode, 404, 'a stranger learns nothing, not even the size')
    const exact = Buffer.concat([PNG, Buffer.alloc(4096 - PNG.length)])
    const ok = await upload({ session_id: customerSession }, { name: 'exact.png', data: exact, type: 'image/png' })
    t.equal(ok.statusCode, 201)
    t.equal(ok.json().size, 4096)
    t.equal((await svc.db.selectFrom('uploads').select('id').where('size', '>', 4096).execute()).length, 0)
  })

  t.test('types: not allowed, or bytes that are not what they claim, are 415', async (t) => {
    const cases: Array<[string, { name: string; data: Uint8Array; type: string }]> = [
      ['html', { name: 'x.html', data: Buffer.from('<script>alert(1)</script>'), type: 'text/html' }],
      ['no type', { name: 'x', data: Buffer.from('abc'), type: '' }],
      ['a png that is not one', { name: 'x.png', data: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' }],
      ['a pdf that is not one', { name: 'x.pdf', data: PNG, type: 'application/pdf' }],
      [
        'a jpeg declared as png',
        { name: 'x.png', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]), type: 'image/png' },
      ],
      ['a .png sent as text', { name: 'x.png', data: Buffer.from('just text'), type: 'text/plain' }],
    ]
    for (const [what, file] of cases) {
      const res = await upload({ session_id: customerSession }, file)
      t.equal(res.statusCode, 415, what)
      t.match(res.json(), { code: 'CONVERSATIONS_UPLOAD_TYPE', error: 'unsupported_media_type' }, what)
    }
    const json = await app.inject({
      method: 'POST',
      url: '/uploads',
      headers: agent,
      payload: { session_id: customerSession },
    })
    t.equal(json.statusCode, 415, 'not multipart')
    const body = await form({ session_id: customerSession })
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/shifts',
      payload: body.payload,
      headers: { ...agent, 'content-type': body.contentType },
    })
    t.equal(elsewhere.statusCode, 415, 'multipart is parsed in the uploads context only')
    t.match(json.json(), { code: 'CONVERSATIONS_UPLOAD_NOT_MULTIPART' })
    const none = await svc.db.selectFrom('uploads').select('id').where('filename', 'like', 'x%').execute()
    t.equal(none.length, 0, 'nothing refused was kept')
  })

  t.test('bad forms are a 400 naming the field', async (t) => {
    const file = { name: 'a.png', data: PNG, type: 'image/png' }
    const cases: Array<[string, Promise<{ statusCode: number; json(): any }>, RegExp]> = [
      ['no session', upload({}, file), /^body\.session_id/],
      ['empty session', upload({ session_id: '' }, file), /^body\.session_id/],
      ['NUL in session', upload({ session_id: 'a\u0000b' }, file), /^body\.session_id/],
      ['no file', upload({ session_id: customerSession }, undefined), /^body\.file/],
      ['empty file', upload({ session_id: customerSession }, { ...file, data: new Uint8Array(0) }), /^body\.file/],
      ['unknown field', upload({ session_id: customerSession, colour: 'red' }, file), /^body\.colour/],
      ['ticket', upload({ session_id: customerSession, ticket_id: 't-1' }, file), /^body\.ticket_id/],
      ['file field', upload({ session_id: customerSession }, { ...file, field: 'attachment' }), /^body\.attachment/],
      [
        'long credential',
        upload({ session_id: visitorSession, visitor_credential: 'x'.repeat(2000) }, file, {}),
        /^body\.visitor_credential/,
      ],
    ]
    for (const [what, pending, message] of cases) {
      const res = await pending
      t.equal(res.statusCode, 400, what)
      t.match(res.json(), { code: 'VALIDATION_FAILED', message }, what)
    }
  })

  t.test('a bad principal header is a 401, not an anonymous caller', async (t) => {
    const res = await get(`/uploads/${newId()}`, { 'x-switchboard-principal': 'forged' })
    t.equal(res.statusCode, 401)
  })

  t.test('the OpenAPI document shows the form', async (t) => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    const post = doc.paths['/uploads'].post
    t.ok(post.requestBody.content['multipart/form-data'].schema.properties.file)
    t.ok(doc.paths['/uploads/{id}'].get)
  })
})
