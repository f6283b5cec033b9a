// Uploads refused: forms the parser cannot read, callers refused before the file, the per-session quota, size and
// type limits, bad fields and principals; and the form in the OpenAPI document. Uploading and reading:
// uploads.routes.test.ts.
import { request } from 'node:http'
import { newId } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { conversationsApp } from '../helpers/app.ts'
import { sessionRow } from '../helpers/queue.ts'
import { form, PNG, uploadsFixture } from '../helpers/uploads-fixture.ts'

inEachStorageMode(t, 'uploads: limits and refusals', async (t, mode) => {
  const { app, svc, agent, other, customerSession, visitorSession, upload, get } = await uploadsFixture(t, mode)

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
    await limited.svc.db
      .insertInto('sessions')
      .values(sessionRow({ id: sessionId }))
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
