import { newId } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { PDF, PNG, sha256, uploadsFixture } from '../helpers/uploads-fixture.ts'

inEachStorageMode(t, 'uploads', async (t, mode) => {
  const {
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
    customerSession,
    visitorSession,
    upload,
    get,
  } = await uploadsFixture(t, mode)

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
})
