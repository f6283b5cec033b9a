// The right to erasure end to end through the gateway, in both run modes: a customer with a note, a conversation
// (their messages and an agent's reply naming them), an upload, a ticket with a comment and a rated CSAT; statistics'
// totals read; the tenant's administrator erases the customer with one call; every unit reports (identity aggregates
// the report); then no API — the customer directory and its search, the conversation, its messages and the
// customer's activity, the upload, the ticket, its comments and the ticket search, the ratings, the audit log and its
// details — returns the person's name, e-mail, phone or what they wrote, and statistics' totals are what they were.
// Erasing again answers with the first erasure; an agent is refused (403); another tenant's admin gets the 404 of a
// customer that does not exist. A tenant's erasure of itself: erasure-tenant.test.ts.
import { BUILT_SERVICES } from '@switchboard/contracts'
import { login } from './harness/auth.ts'
import { switchboard } from './harness/cli.ts'
import { conversationsKit, getUpload, must, PNG, postUpload } from './harness/conversations-kit.ts'
import { clean, leaks, markersIn, settledTotals, tenantAdmin } from './harness/erasure-kit.ts'
import { until } from './harness/http.ts'
import { isError, sameAs } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { createTicket } from './harness/tickets-kit.ts'

inEachMode('erasure: a customer erased everywhere, totals kept', {}, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api, suffix } = kit
  const scope = kit.freshScope('era')
  const other = kit.freshScope('erb')
  const staff = kit.svc(scope)
  const admin = await tenantAdmin(api, kit.service, scope, `era_admin_${suffix}`)
  const foreignAdmin = await tenantAdmin(api, kit.service, other, `erb_admin_${suffix}`)

  // The person, with markers no other record holds: name, e-mail, phone, and the words they wrote.
  const name = `Zenobia Quartermaine ${suffix}`
  const email = `zenobia_${suffix}@e2e.example.com`
  const phone = `+4930${suffix.replace(/\D/g, '7').padEnd(6, '7')}11`
  const said = `my parcel ZX${suffix}Q never arrived`
  const markers = [name, email, phone, said, `Quartermaine ${suffix}`, `ZX${suffix}Q`]
  const username = `zenobia_${suffix}`
  const password = `Pw-${username}-0123456789`
  const customer = must(
    await api.post('/api/customers', { name, email, phone, username, password, source: 'web' }, staff),
    201,
    'customer',
  ) as { id: string; user_id: string }
  must(await api.post(`/api/customers/${customer.id}/notes`, { content: `called about ${said}` }, staff), 201, 'note')

  // A conversation: the customer writes, an agent answers by name, an attachment.
  const hub = kit.hub(scope)
  const opened = await hub.open(`Hello, ${said}`, customer.user_id)
  const sessionId = opened.session.id as string
  must(
    await hub.post(`/internal/sessions/${sessionId}/messages`, {
      sender: 'customer',
      customer_id: customer.user_id,
      content: `Call me on ${phone}`,
    }),
    201,
    'customer message',
  )
  const agent = await kit.agent(scope, 'erag', { online: true })
  const agentToken = (await kit.agentLogin(agent)).token
  must(
    await api.post(`/api/omni/sessions/${sessionId}/messages`, { content: `Dear ${name}, we are on it` }, staff),
    201,
    'agent reply',
  )
  const customerToken = (await login(api, username, password)).token
  const upload = must(
    await postUpload(
      system.url,
      { session_id: sessionId },
      { name: `zenobia-${suffix}.png`, type: 'image/png', bytes: PNG },
      { token: customerToken },
    ),
    201,
    'upload',
  ) as { id: string }

  // A voice call in the conversation: the caller's number, their words transcribed, a recording with its audio.
  const asAgent = { token: agentToken }
  const callId = `erasure-${suffix}@pbx.example.com`
  must(
    await api.post(
      '/api/voice/protocols/sip/call-events/invite',
      { payload: { call_id: callId, conversation_id: sessionId, from: phone, to: '+15550199' } },
      asAgent,
    ),
    200,
    'call',
  )
  must(
    await api.post(
      '/api/voice/transcripts',
      { call_id: callId, content: `This is ${name} about ${said}`, language: 'en', finalized: true },
      asAgent,
    ),
    201,
    'transcript',
  )
  const recording = must(await api.post('/api/voice/recordings/start', { call_id: callId }, asAgent), 201, 'recording')
  must(await api.post('/api/voice/recordings/stop', { recording_id: recording.id }, asAgent), 200, 'stop')
  const audio = await fetch(new URL(`/api/voice/recordings/${recording.id}/audio`, system.url), {
    method: 'POST',
    headers: { 'content-type': 'audio/wav', authorization: `Bearer ${agentToken}` },
    body: new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]),
  })
  t.ok(audio.ok, `the recording's audio kept (${audio.status})`)
  const recorded = must(await api.get(`/api/voice/recordings/${recording.id}`, asAgent), 200, 'recording')
  t.ok(recorded.upload_id, 'in an upload of the conversation')

  // A ticket with a comment, resolved and rated with a comment.
  const ticket = must(
    await createTicket(
      api,
      { title: `Parcel of ${name}`, description: said, customer_id: customer.id, category: 'billing' },
      staff,
    ),
    201,
    'ticket',
  ) as { id: string }
  must(await api.post(`/api/tickets/${ticket.id}/comments`, { content: `Spoke to ${name}` }, staff), 201, 'comment')
  must(await api.post('/api/satisfactions', { ticket_id: ticket.id, rating: 4, comment: said }, staff), 201, 'rating')

  // Everything has reached its readers: statistics' totals and the audit trail (which names the person).
  // statistics counts the conversation's public messages (the customer's, the agent's, the call's notices and words)
  const thread = must(await api.get(`/api/omni/sessions/${sessionId}/messages?limit=200`, staff), 200, 'messages')
  const counted = (thread.items as { visibility: string }[]).filter((m) => m.visibility !== 'internal').length
  const before = await settledTotals(
    api,
    staff,
    (b) =>
      b.total_tickets === 1 && b.total_sessions === 1 && b.today_messages === counted && b.customer_satisfaction === 4,
  )
  t.match(
    before,
    { total_tickets: 1, total_sessions: 1, today_messages: counted, customer_satisfaction: 4 },
    `statistics counted it all: ${JSON.stringify(before)}`,
  )
  await until('audit records of the customer', async () => {
    const r = await api.get(`/api/audit/logs?page_size=200`, { token: admin.token })
    return r.status === 200 && leaks(r.body, [name, said]).length === 2 ? r.body : undefined
  })

  const personIn = (service: string) => markersIn(system, service, markers)

  t.test('before: the databases hold the person (what the scan after the erasure must not find)', async (t) => {
    for (const service of ['identity', 'conversations', 'tickets', 'audit']) {
      const { found } = await personIn(service)
      t.ok(found.length > 0, `${service}: ${found.join('; ')}`)
    }
  })

  t.test('only an administrator of the scope erases; another tenant is told nothing', async (t) => {
    isError(t, await api.post(`/api/customers/${customer.id}/erasure`, undefined, { token: agentToken }), 403)
    const foreign = await api.post(`/api/customers/${customer.id}/erasure`, undefined, { token: foreignAdmin.token })
    const missing = await api.post('/api/customers/no-such-customer/erasure', undefined, {
      token: foreignAdmin.token,
    })
    isError(t, foreign, 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
    t.same(sameAs(foreign), sameAs(missing), "another tenant's customer answers like a missing one")
    t.equal((await api.get(`/api/customers/${customer.id}`, staff)).status, 200, 'and the customer is still there')
  })

  t.test('the export: all of the person in one archive, for administrators of the scope only', async (t) => {
    const r = await api.get(`/api/customers/${customer.id}/export`, { token: admin.token })
    t.equal(r.status, 200, r.text.slice(0, 300))
    t.match(r.headers.get('content-disposition'), /attachment; filename="customer-/)
    const parts = r.body.parts
    t.same(Object.keys(parts).sort(), ['audit', 'conversations', 'identity', 'realtime-voice', 'tickets'])
    t.match(parts.identity.customers[0], { id: customer.id, name, email, phone })
    t.equal(parts.identity.customer_notes.length, 1)
    t.notOk(JSON.stringify(parts.identity).includes('password_hash'), 'no password hash')
    t.equal(parts.conversations.sessions.length, 1)
    const contents = (parts.conversations.messages as { content: string }[]).map((m) => m.content)
    t.ok(contents.some((c) => c.includes(said)) && contents.some((c) => c.includes(phone)), 'their messages')
    t.equal(parts.conversations.uploads[0].id, upload.id)
    t.match(parts.tickets.tickets[0], { id: ticket.id, title: `Parcel of ${name}`, description: said })
    t.equal(parts.tickets.ticket_comments.length, 1)
    t.match(parts.tickets.satisfactions[0], { rating: 4, comment: said })
    t.ok(parts.audit.audit_records.length >= 2, 'the audit records of and by them')
    isError(t, await api.get(`/api/customers/${customer.id}/export`, { token: agentToken }), 403)
    const foreign = await api.get(`/api/customers/${customer.id}/export`, { token: foreignAdmin.token })
    const missing = await api.get('/api/customers/no-such-customer/export', { token: foreignAdmin.token })
    isError(t, foreign, 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
    t.same(sameAs(foreign), sameAs(missing), "another tenant's customer exports like a missing one")
    const audited = await until('the export audited', async () => {
      const logs = await api.get('/api/audit/logs?action=customers.export&page_size=50', { token: admin.token })
      return (logs.body?.data as any[] | undefined)?.find((x) => x.resource_id === customer.id && x.success)
    })
    clean(t, "the export's audit record", audited, markers)
  })

  let erasureId = ''
  t.test('one call erases; every unit reports', async (t) => {
    const started = await api.post(`/api/customers/${customer.id}/erasure`, undefined, { token: admin.token })
    t.equal(started.status, 202, started.text)
    erasureId = started.body.erasure_id
    t.match(started.body, { customer_id: customer.id, status: String, requested_at: String })
    clean(t, 'the answer', started.body, markers)
    const done = await until(
      'the erasure completed',
      async () => {
        const r = await api.get(`/api/customers/${customer.id}/erasure`, { token: admin.token })
        return r.body?.status === 'completed' ? r.body : undefined
      },
      30_000,
    )
    t.same(done.pending, [])
    const by = Object.fromEntries((done.services as any[]).map((s) => [s.service, s.counts]))
    t.same(Object.keys(by).sort(), [
      'ai-orchestrator',
      'audit',
      'conversations',
      'dlq',
      'identity',
      'realtime-voice',
      'tickets',
    ])
    t.match(by.identity, { customers_removed: 1, notes_deleted: 1, accounts_emptied: 1 })
    t.match(by.dlq, { dead_letters_removed: 0 }, 'no dead letter about them here (erasure-dlq.test.ts has some)')
    t.match(by.conversations, { sessions_tombstoned: 1, messages_tombstoned: Number, uploads_deleted: 2 })
    t.ok(by.conversations.messages_tombstoned >= 3, 'the three messages at least')
    t.match(by.tickets, { tickets_tombstoned: 1, comments_tombstoned: 1, rating_comments_erased: 1 })
    t.ok(by.audit.records_masked >= 3, `audit masked ${by.audit.records_masked} records`)
    t.match(by['ai-orchestrator'], { ticket_index_tombstoned: Number })
    t.match(by['realtime-voice'], { calls_erased: 1, recordings_deleted: 1, transcripts_tombstoned: 1 })
  })

  t.test('no API returns the person any more', async (t) => {
    isError(t, await api.get(`/api/customers/${customer.id}`, staff), 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
    for (const q of [name, email, phone, `Quartermaine ${suffix}`]) {
      const r = must(await api.get(`/api/customers?search=${encodeURIComponent(q)}`, staff), 200, 'search')
      t.equal(r.total, 0, `customer search for "${q}" finds nothing`)
    }
    clean(t, 'the customer list', must(await api.get('/api/customers?page_size=200', staff), 200, 'list'), markers)
    const refused = await api.post('/api/v1/auth/login', { username, password })
    t.equal(refused.status, 401, 'the account no longer logs in')

    const session = must(await api.get(`/api/omni/sessions/${sessionId}`, staff), 200, 'session')
    clean(t, 'the conversation', session, markers)
    const messages = must(await api.get(`/api/omni/sessions/${sessionId}/messages`, staff), 200, 'messages')
    clean(t, 'its messages', messages, markers)
    const items = (messages.items ?? messages.data ?? messages) as { content: string; created_at: string }[]
    t.ok(items.length >= 3, 'the messages are still counted')
    t.ok(
      items.every((m) => typeof m.created_at === 'string'),
      'and keep their times',
    )
    clean(t, 'the customer activity', (await api.get(`/api/customers/${customer.id}/activity`, staff)).body, markers)
    isError(t, await getUpload(system.url, `/uploads/${upload.id}`, { token: agentToken }), 404)

    const transcripts = must(
      await api.get(`/api/voice/transcripts?call_id=${encodeURIComponent(callId)}`, asAgent),
      200,
      'transcripts',
    )
    clean(t, 'the call transcripts', transcripts, markers)
    const recordingNow = must(await api.get(`/api/voice/recordings/${recording.id}`, asAgent), 200, 'recording')
    t.equal(recordingNow.upload_id, null, "the recording's audio is gone")
    isError(t, await getUpload(system.url, `/uploads/${recorded.upload_id}`, { token: agentToken }), 404)
    const ticketNow = must(await api.get(`/api/tickets/${ticket.id}`, staff), 200, 'ticket')
    clean(t, 'the ticket', ticketNow, markers)
    t.equal(ticketNow.status, 'open', 'the ticket keeps its status')
    clean(t, 'its comments', (await api.get(`/api/tickets/${ticket.id}/comments`, staff)).body, markers)
    for (const q of ['Parcel', `ZX${suffix}Q`, 'Quartermaine']) {
      const r = must(await api.get(`/api/tickets?search=${encodeURIComponent(q)}`, staff), 200, 'ticket search')
      t.equal(r.total, 0, `ticket search for "${q}" finds nothing`)
    }
    clean(t, 'the ratings', (await api.get('/api/satisfactions?page_size=200', staff)).body, markers)
    clean(t, 'the suggestions', (await api.get('/api/assist/suggest?q=Parcel', staff)).body, markers)

    const logs = must(await api.get('/api/audit/logs?page_size=200', { token: admin.token }), 200, 'audit')
    clean(t, 'the audit log', logs, markers)
    const actions = (logs.data as any[]).map((r) => r.action)
    t.ok(actions.length >= 5, `the audit log keeps its ${actions.length} actions`)
    for (const record of (logs.data as any[]).slice(0, 40)) {
      clean(
        t,
        `audit record ${record.action}`,
        (await api.get(`/api/audit/logs/${record.id}`, { token: admin.token })).body,
        markers,
      )
    }
  })

  t.test('the export has nothing left to give', async (t) => {
    const r = await api.get(`/api/customers/${customer.id}/export`, { token: admin.token })
    isError(t, r, 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
    clean(t, 'the export', r.body, markers)
  })

  t.test('the CLI: erase again, read the report, export nothing', async (t) => {
    const target = ['--gateway', system.url, '--tenant', scope.tenant_id, '--workspace', scope.workspace_id]
    const env = { JWT_SECRET: system.env.JWT_SECRET! }
    const again = await switchboard(['customer', 'erase', customer.id, ...target, '--json'], env)
    const body = JSON.parse(again.stdout)
    t.equal(body.erasure_id, erasureId, 'switchboard customer erase answers with the first erasure')
    t.equal(body.status, 'completed')
    const report = await switchboard(['customer', 'erasure', customer.id, ...target], env)
    t.match(report.stdout, new RegExp(`erasure ${erasureId} of customer ${customer.id}: completed`))
    t.match(report.stdout, /conversations\s+sessions_tombstoned=1 messages_tombstoned=\d+ /)
    const exported = await switchboard(['customer', 'export', customer.id, ...target], env).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    )
    t.equal(exported?.code, 1, 'the export of an erased customer fails')
    t.match(exported?.stderr, /404 IDENTITY_CUSTOMER_NOT_FOUND/)
  })

  t.test("no unit's database holds the person any more", async (t) => {
    for (const service of BUILT_SERVICES) {
      const { tables, found } = await personIn(service)
      t.ok(tables > 0, `${service}: its tables were read`)
      t.same(found, [], `${service}: no table holds the person (${tables} tables read)`)
    }
  })

  t.test("statistics' totals are unchanged", async (t) => {
    const after = await settledTotals(api, staff, () => true)
    t.same(after, before)
  })

  t.test('erasing again answers with the first erasure', async (t) => {
    const again = await api.post(`/api/customers/${customer.id}/erasure`, undefined, { token: admin.token })
    t.equal(again.status, 200, again.text)
    t.equal(again.body.erasure_id, erasureId)
    t.equal(again.body.status, 'completed')
    const foreign = await api.get(`/api/customers/${customer.id}/erasure`, { token: foreignAdmin.token })
    isError(t, foreign, 404, 'IDENTITY_CUSTOMER_NOT_FOUND')
  })
})
