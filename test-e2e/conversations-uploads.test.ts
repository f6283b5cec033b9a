// Uploads end to end through the gateway, in both run modes: an anonymous widget visitor (no token, only the
// credential its session was opened with) uploads and reads back its file; a wrong credential learns nothing;
// agents of the workspace read with their token; a signed-in customer reaches its own files and no one else's.
import { createHash } from 'node:crypto'
import { conversationsKit, type FilePart, getUpload, must, PNG, postUpload } from './harness/conversations-kit.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const png: FilePart = { name: 'screenshot.png', type: 'image/png', bytes: PNG }
const text: FilePart = { name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('order 1234\n') }

inEachMode('conversations: uploads', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('cvup')
  const hub = kit.hub(scope)
  const agent = await kit.agent(scope, 'uma')
  const agentToken = (await kit.agentLogin(agent)).token
  // The widget: the hub opens an anonymous session and hands the visitor its credential, once.
  const visitor = await hub.open('Can I send you a screenshot?')
  const credential = visitor.visitor!.credential
  const sessionId = visitor.session.id as string
  const other = await hub.open('Another visitor')
  const otherCredential = other.visitor!.credential

  let uploadId = ''

  t.test('an anonymous visitor uploads with its credential, no token', async (t) => {
    t.match(visitor.session, { customer_id: null, visitor_id: String })
    t.ok(credential.length >= 43, 'a 32-byte credential')
    const access = await hub.post(`/internal/sessions/${sessionId}/access`, { visitor_credential: credential })
    t.equal(access.body.role, 'visitor', 'the hub admits the socket with it')

    const created = await postUpload(system.url, { session_id: sessionId, visitor_credential: credential }, png)
    t.equal(created.status, 201, created.text)
    t.match(created.body, {
      id: String,
      filename: 'screenshot.png',
      content_type: 'image/png',
      size: PNG.byteLength,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      session_id: sessionId,
      url: `/uploads/${created.body.id}`,
    })
    uploadId = created.body.id
    isError(
      t,
      await postUpload(system.url, { session_id: sessionId, visitor_credential: otherCredential }, png),
      404,
      'CONVERSATIONS_SESSION_NOT_FOUND',
      "another visitor's credential",
    )
    isError(
      t,
      await postUpload(system.url, { session_id: sessionId }, png),
      404,
      'CONVERSATIONS_SESSION_NOT_FOUND',
      'no credential, no token',
    )
    isError(
      t,
      await postUpload(
        system.url,
        { session_id: sessionId, visitor_credential: credential },
        { ...png, bytes: new TextEncoder().encode('<script>alert(1)</script>') },
      ),
      415,
      'CONVERSATIONS_UPLOAD_TYPE',
      'bytes that are no PNG, declared as one',
    )
  })

  t.test('the visitor reads it back; a wrong credential gets the missing-upload answer', async (t) => {
    const asVisitor = (c: string) => ({ headers: { 'x-visitor-credential': c } })
    const byHeader = await getUpload(system.url, `/uploads/${uploadId}`, asVisitor(credential))
    t.equal(byHeader.status, 200, 'the credential in its header')
    t.same([...byHeader.bytes], [...PNG], 'the bytes, unchanged')
    t.equal(byHeader.headers.get('content-type'), 'image/png')
    t.equal(byHeader.headers.get('x-content-type-options'), 'nosniff')
    t.match(byHeader.headers.get('content-disposition'), /^inline; filename="screenshot.png"/)
    const byQuery = await getUpload(system.url, `/uploads/${uploadId}?visitor_credential=${credential}`)
    t.equal(byQuery.status, 400, 'never in the URL (it would end up in logs)')
    const meta = await getUpload(system.url, `/uploads/${uploadId}/meta`, asVisitor(credential))
    t.match(meta.body, { id: uploadId, size: PNG.byteLength })

    for (const [label, path, c] of [
      ["another visitor's credential", `/uploads/${uploadId}`, otherCredential],
      ['a made-up credential', `/uploads/${uploadId}`, 'x'.repeat(43)],
      ['nothing at all', `/uploads/${uploadId}`, undefined],
      ['meta with a wrong credential', `/uploads/${uploadId}/meta`, otherCredential],
    ] as const) {
      const reply = await getUpload(system.url, path, c ? asVisitor(c) : {})
      isError(t, reply, 404, 'CONVERSATIONS_UPLOAD_NOT_FOUND', label)
    }
  })

  t.test("an agent of the workspace reads it with a token; an upload of the agent's own", async (t) => {
    const got = await getUpload(system.url, `/uploads/${uploadId}`, { token: agentToken })
    t.equal(got.status, 200, 'an agent of the workspace')
    t.same([...got.bytes], [...PNG])
    const own = await postUpload(system.url, { session_id: sessionId }, text, { token: agentToken })
    t.equal(own.status, 201, own.text)
    const read = await getUpload(system.url, `/uploads/${own.body.id}`, {
      headers: { 'x-visitor-credential': credential },
    })
    t.equal(read.text, 'order 1234\n', 'the visitor reads what the agent sent to the session')
    t.match(read.headers.get('content-disposition'), /^attachment; /, 'anything but an image downloads')
    isError(
      t,
      await getUpload(system.url, `/uploads/${uploadId}`, { token: 'not.a.token' }),
      401,
      undefined,
      'a token that is present must be valid',
    )
  })

  t.test('a signed-in customer reaches its own uploads only', async (t) => {
    const [vera, walt] = [await kit.customer(scope, 'vera'), await kit.customer(scope, 'walt')]
    const veraSession = await hub.open('Invoice attached', vera.user_id)
    const token = async (c: typeof vera) =>
      must(await api.post('/api/v1/auth/login', { username: c.username, password: c.password }), 200, 'login').token
    const veraToken = await token(vera)
    const waltToken = await token(walt)
    const created = await postUpload(system.url, { session_id: veraSession.session.id }, text, { token: veraToken })
    t.equal(created.status, 201, created.text)
    t.equal((await getUpload(system.url, `/uploads/${created.body.id}`, { token: veraToken })).status, 200)
    isError(
      t,
      await getUpload(system.url, `/uploads/${created.body.id}`, { token: waltToken }),
      404,
      'CONVERSATIONS_UPLOAD_NOT_FOUND',
      "another customer's upload",
    )
    isError(
      t,
      await postUpload(system.url, { session_id: veraSession.session.id }, text, { token: waltToken }),
      404,
      'CONVERSATIONS_SESSION_NOT_FOUND',
      "uploading into another customer's session",
    )
    isError(
      t,
      await getUpload(system.url, `/uploads/${uploadId}`, { token: waltToken }),
      404,
      'CONVERSATIONS_UPLOAD_NOT_FOUND',
      "a customer reading a visitor's upload",
    )
  })
})
