import { FormatRegistry } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ConversationsApi as C } from '@switchboard/contracts'
import { conversationsClient, createServiceClient } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { conversationsApp, INTERNAL_SECRET, principal } from '../helpers/app.ts'
import { seedAgent } from '../helpers/omni.ts'

// The one client other services call conversations with (packages/platform conversations-client.ts) against the
// real routes: every answer matches its contract in packages/contracts, and a refusal comes back as data with
// conversations' own code. Were a route and its contract to drift apart, these checks fail.

// TypeBox's checker knows no formats of its own; the routes' (Ajv's) date-time is an ISO timestamp
FormatRegistry.Set('date-time', (v) => !Number.isNaN(Date.parse(v)))

const acme = { tenant_id: 'acme', workspace_id: 'support' }
const globex = { tenant_id: 'globex', workspace_id: 'support' }

inEachStorageMode(t, 'conversations client against the internal API', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  await seedAgent(svc, { user_id: 'agent-1' })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const client = conversationsClient(
    createServiceClient({ service: 'conversations', urls: [address], internalSecret: INTERNAL_SECRET, self: 'hub' }),
  )
  t.teardown(() => client.close())
  const id = `cl-${mode}-1`

  const created = await client.createSession(
    { session_id: id, sender: 'customer', customer_id: 'cust-1', channel: 'web', content: 'Hello there' },
    { scope: acme, request_id: 'req-client-1' },
  )
  t.equal(created.status, 201)
  t.ok(created.ok && Value.Check(C.InternalMessageResult, created.body), 'createSession: InternalMessageResult')
  t.equal(created.ok && created.body.session.id, id)

  const posted = await client.postMessage(id, { sender: 'ai', content: 'An answer' }, { scope: acme })
  t.ok(posted.ok && Value.Check(C.InternalMessageResult, posted.body), 'postMessage: InternalMessageResult')
  t.equal(posted.ok && posted.body.message.sender, 'ai')

  const access = await client.access(id, { customer_id: 'cust-1' }, { scope: acme })
  t.ok(access.ok && Value.Check(C.AccessResult, access.body), 'access: AccessResult')
  t.equal(access.ok && access.body.role, 'customer')

  const session = await client.session(id, { scope: acme })
  t.ok(session.ok && Value.Check(C.Session, session.body), 'session: Session')
  t.equal(session.ok && session.body.message_count, 2)

  const page = await client.messages(id, { limit: 1 }, { scope: acme })
  t.ok(page.ok && Value.Check(C.MessageList, page.body), 'messages: MessageList')
  t.same(page.ok && page.body.items.map((m) => m.content), ['An answer'], 'the latest `limit`, as asked')
  const first = created.ok ? created.body.message.id : ''
  const after = await client.messages(id, { after: first, visibility: 'all' }, { scope: acme })
  t.same(after.ok && after.body.items.map((m) => m.content), ['An answer'], 'after a cursor')

  const read = await client.markRead(id, { user_id: 'agent-1', message_id: first }, { scope: acme })
  t.ok(read.ok && Value.Check(C.ReadResult, read.body), 'markRead: ReadResult')

  const agent = principal()
  const reply = await client.postAsAgent(id, { content: 'A human here' }, { as: agent })
  // not assigned to agent-1: conversations' posting rule answers, as data
  t.equal(reply.ok, false)
  t.equal(reply.status, 403)
  t.equal(!reply.ok && typeof reply.body.code, 'string', 'its own code')

  const handed = await client.toHuman({ session_id: id, reason: 'asked for a person' }, { scope: acme })
  t.ok(handed.ok && Value.Check(C.TransferResult, handed.body), 'toHuman: TransferResult')

  const closed = await client.closeSession(id, { reason: 'done' }, { scope: acme })
  t.ok(closed.ok && Value.Check(C.Session, closed.body), 'closeSession: Session')
  t.equal(closed.ok && closed.body.status, 'closed')

  // another tenant's session answers exactly like a missing one
  const elsewhere = await client.session(id, { scope: globex })
  const missing = await client.session(`cl-${mode}-none`, { scope: acme })
  t.equal(elsewhere.status, 404)
  t.equal(missing.status, 404)
  t.equal(!elsewhere.ok && elsewhere.body.code, !missing.ok && missing.body.code)
  t.equal(!elsewhere.ok && elsewhere.body.code, 'CONVERSATIONS_SESSION_NOT_FOUND')

  // a body off the contract is conversations' 400, named by field
  const bad = await client.postMessage(id, { sender: 'customer', content: ' ' }, { scope: acme })
  t.equal(bad.status, 400)
  t.equal(!bad.ok && bad.body.code, 'VALIDATION_FAILED')
})
