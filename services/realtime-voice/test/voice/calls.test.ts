import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, principal, servicePrincipal, voiceApps } from './helpers.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })

inEachStorageMode(t, 'voice calls', async (t, mode) => {
  const { app, conv } = await voiceApps(t, mode)
  const h = {
    agent: await as(agent),
    other: await as(otherTenant),
    otherWs: await as(otherWorkspace),
    service: await as(servicePrincipal()),
  }
  const event = (protocol: string, kind: string, payload: Record<string, unknown>, headers = h.agent) =>
    app.inject({
      method: 'POST',
      url: `/api/voice/protocols/${protocol}/call-events/${kind}`,
      headers,
      payload: { payload },
    })
  const ok = async (protocol: string, kind: string, payload: Record<string, unknown>) => {
    const res = await event(protocol, kind, payload)
    t.equal(res.statusCode, 200, res.statusCode === 200 ? kind : res.body)
    return res.json()
  }
  // what conversations itself says (its internal API, as a service of the scope)
  const session = async (id: string) => {
    const res = await conv.inject({ method: 'GET', url: `/internal/sessions/${id}`, headers: h.service })
    t.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const messages = async (id: string) =>
    (await conv.inject({ method: 'GET', url: `/internal/sessions/${id}/messages`, headers: h.service })).json().items
  const transcript = (payload: Record<string, unknown>, headers = h.agent) =>
    app.inject({ method: 'POST', url: '/api/voice/transcripts', headers, payload: { language: 'en-US', ...payload } })
  const parties = { from: '+15550001', to: '+15550002' }

  t.test('protocols: the registry, paginated', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/api/voice/protocols', headers: h.agent })
    t.equal(res.statusCode, 200)
    const page = res.json()
    t.match(page, { total: 6, page: 1, page_size: 20, pages: 1 })
    t.same(
      page.data.map((p: { id: string; type: string }) => `${p.type}:${p.id}`),
      ['signaling:sip', 'signaling:sip-ws', 'signaling:pstn-provider', 'media:webrtc', 'media:rtp', 'media:srtp'],
    )
    t.match(page.data[0], { status: 'configured', created_at: /^\d{4}-/ })
    const second = (
      await app.inject({ method: 'GET', url: '/api/voice/protocols?page=2&page_size=4', headers: h.agent })
    ).json()
    t.match(second, { total: 6, page: 2, page_size: 4, pages: 2 })
    t.same(
      second.data.map((p: { id: string }) => p.id),
      ['rtp', 'srtp'],
    )
    t.equal(
      (await app.inject({ method: 'GET', url: '/api/voice/protocols?page_size=500', headers: h.agent })).statusCode,
      400,
    )
    t.equal((await app.inject({ method: 'GET', url: '/api/voice/protocols' })).statusCode, 401, 'no principal')
  })

  t.test('a call: invite opens a voice conversation, transcripts post in it, hangup closes it', async (t) => {
    const invite = await ok('sip', 'invite', { call_id: 'call-1', ...parties, metadata: { trunk: 'eu-1' } })
    t.match(invite, {
      event_id: 'sip-invite-call-1',
      protocol: 'sip',
      kind: 'invite',
      call_id: 'call-1',
      call_status: 'ringing',
      from: '+15550001',
      to: '+15550002',
      dtmf: null,
      metadata: { trunk: 'eu-1' },
    })
    t.match(invite.occurred_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const conversationId = invite.conversation_id as string
    t.ok(conversationId, 'linked to a conversation')
    t.match(await session(conversationId), {
      id: conversationId,
      channel: 'voice',
      status: 'active',
      customer_id: 'tel:+15550001',
      tenant_id: 'acme',
      workspace_id: 'support',
      subject: 'Voice call from +15550001',
    })
    const opened = await messages(conversationId)
    t.equal(opened.length, 1)
    t.match(opened[0], {
      sender: 'customer',
      content: 'Voice call from +15550001 to +15550002',
      metadata: { call_id: 'call-1' },
    })

    t.same(await ok('sip', 'invite', { call_id: 'call-1', ...parties }), invite, 'a repeated invite is the stored one')
    t.equal((await messages(conversationId)).length, 1, 'and opens nothing more')

    const answer = await ok('sip', 'answer', { call_id: 'call-1', ...parties })
    t.match(answer, { event_id: 'sip-answer-call-1', call_status: 'active', conversation_id: conversationId })
    t.same(await ok('sip', 'answer', { call_id: 'call-1', ...parties }), answer, 'answer replayed')

    const hold = await ok('sip', 'hold', { call_id: 'call-1', ...parties })
    t.match(hold, { event_id: 'sip-hold-call-1', call_status: 'held' })
    t.same(await ok('sip', 'hold', { call_id: 'call-1', ...parties }), hold, 'hold while held: the same hold')
    t.equal(
      (await event('sip', 'dtmf', { call_id: 'call-1', ...parties, dtmf: '1' })).statusCode,
      409,
      'no dtmf on hold',
    )
    const resume = await ok('sip', 'resume', { call_id: 'call-1', ...parties })
    t.match(resume, { event_id: 'sip-resume-call-1', call_status: 'active' })
    t.same(await ok('sip', 'resume', { call_id: 'call-1', ...parties }), resume, 'resume replayed')
    t.match(await ok('sip', 'hold', { call_id: 'call-1', ...parties }), {
      event_id: 'sip-hold-call-1-2',
      call_status: 'held',
    })
    t.match(await ok('sip-ws', 'resume', { call_id: 'call-1', ...parties }), {
      event_id: 'sip-ws-resume-call-1-2',
      protocol: 'sip-ws',
      call_status: 'active',
    })

    const at = '2026-11-24T10:00:00+01:00'
    const dtmf = await ok('sip', 'dtmf', { call_id: 'call-1', ...parties, dtmf: '12#', occurred_at: at })
    t.match(dtmf, { event_id: 'sip-dtmf-call-1', dtmf: '12#', occurred_at: '2026-11-24T09:00:00.000Z' })
    t.same(
      await ok('sip', 'dtmf', { call_id: 'call-1', ...parties, dtmf: '12#', occurred_at: '2026-11-24T09:00:00Z' }),
      dtmf,
      'same digits at the same instant: a retry',
    )
    t.match(await ok('sip', 'dtmf', { call_id: 'call-1', ...parties, dtmf: '12#' }), { event_id: 'sip-dtmf-call-1-2' })
    const missing = await event('sip', 'dtmf', { call_id: 'call-1', ...parties })
    t.equal(missing.statusCode, 400)
    t.match(missing.json().message, /payload\.dtmf/)

    const transfer = await ok('sip', 'transfer', { call_id: 'call-1', from: '+15550002', to: 'sip:desk-2@pbx' })
    t.match(transfer, { event_id: 'sip-transfer-call-1', to: 'sip:desk-2@pbx', call_status: 'active' })
    t.same(await ok('sip', 'transfer', { call_id: 'call-1', from: '+15550002', to: 'sip:desk-2@pbx' }), transfer)

    // transcripts: finalized ones become messages, interim ones do not
    const said = await transcript({ call_id: 'call-1', content: 'My router is blinking red.', finalized: true })
    t.equal(said.statusCode, 201, said.body)
    t.match(said.json(), {
      call_id: 'call-1',
      conversation_id: conversationId,
      speaker: 'caller',
      language: 'en-US',
      finalized: true,
      message_id: /./,
      tenant_id: 'acme',
      workspace_id: 'support',
    })
    const interim = await transcript({ call_id: 'call-1', content: 'Let me', finalized: false, speaker: 'agent' })
    t.equal(interim.statusCode, 201)
    t.equal(interim.json().message_id, null, 'interim: kept, not posted')
    const reply = await transcript({
      call_id: 'call-1',
      content: 'Let me check that.',
      finalized: true,
      speaker: 'agent',
    })
    t.equal(reply.statusCode, 201)
    const posted = await messages(conversationId)
    const caller = posted.find((m: { id: string }) => m.id === said.json().message_id)
    t.match(caller, {
      sender: 'customer',
      sender_id: 'tel:+15550001',
      content: 'My router is blinking red.',
      metadata: { source: 'voice', speaker: 'caller', transcript_id: said.json().id, call_id: 'call-1' },
    })
    const agentLine = posted.find((m: { id: string }) => m.id === reply.json().message_id)
    t.match(agentLine, {
      sender: 'system',
      content: 'Let me check that.',
      metadata: { speaker: 'agent', transcript_id: reply.json().id },
    })
    t.notOk(posted.some((m: { content: string }) => m.content === 'Let me'))

    const list = await app.inject({ method: 'GET', url: '/api/voice/transcripts?call_id=call-1', headers: h.agent })
    t.equal(list.statusCode, 200)
    t.match(list.json(), { total: 3, page: 1, pages: 1 })
    t.same(
      list.json().data.map((x: { content: string }) => x.content),
      ['My router is blinking red.', 'Let me', 'Let me check that.'],
      'in the order they were said',
    )
    const paged = await app.inject({
      method: 'GET',
      url: '/api/voice/transcripts?call_id=call-1&page=2&page_size=2',
      headers: h.agent,
    })
    t.match(paged.json(), { total: 3, page: 2, page_size: 2, pages: 2 })
    t.equal(paged.json().data.length, 1)

    const hangup = await ok('sip', 'hangup', { call_id: 'call-1', ...parties })
    t.match(hangup, { event_id: 'sip-hangup-call-1', call_status: 'ended' })
    const closed = await session(conversationId)
    t.equal(closed.status, 'closed', 'hangup closed the conversation')
    t.ok(closed.ended_at)
    t.same(await ok('sip', 'hangup', { call_id: 'call-1', ...parties }), hangup, 'hangup replayed')

    const late = await event('sip', 'hold', { call_id: 'call-1', ...parties })
    t.equal(late.statusCode, 409)
    t.match(late.json(), { code: 'REALTIME_CALL_INVALID_TRANSITION', error: 'conflict' })
    const after = await transcript({ call_id: 'call-1', content: 'Goodbye.', finalized: true })
    t.equal(after.statusCode, 201, 'a late transcript is kept')
    t.equal(after.json().message_id, null, 'without reopening the closed conversation')
    t.equal((await session(conversationId)).status, 'closed')
  })

  t.test('invalid transitions are 409, unknown calls 404', async (t) => {
    await ok('pstn-provider', 'invite', { call_id: 'call-2', ...parties })
    t.equal(
      (await event('pstn-provider', 'hold', { call_id: 'call-2', ...parties })).statusCode,
      409,
      'hold a ringing call',
    )
    t.equal((await event('pstn-provider', 'resume', { call_id: 'call-2', ...parties })).statusCode, 409)
    await ok('pstn-provider', 'hangup', { call_id: 'call-2', ...parties })
    const answer = await event('pstn-provider', 'answer', { call_id: 'call-2', ...parties })
    t.equal(answer.statusCode, 409, 'answer after hangup')
    t.match(answer.json(), {
      code: 'REALTIME_CALL_INVALID_TRANSITION',
      message: 'call call-2 is ended: answer is not allowed',
      request_id: /./,
    })
    const unknown = await event('sip', 'answer', { call_id: 'no-such-call', ...parties })
    t.equal(unknown.statusCode, 404)
    t.equal(unknown.json().code, 'REALTIME_CALL_NOT_FOUND')
  })

  t.test('unknown protocol 404, unknown event 400, bad payload 400', async (t) => {
    const proto = await event('h323', 'invite', { call_id: 'x', ...parties })
    t.equal(proto.statusCode, 404)
    t.match(proto.json(), { code: 'REALTIME_UNKNOWN_PROTOCOL', error: 'not_found' })
    t.equal((await event('webrtc', 'invite', { call_id: 'x', ...parties })).statusCode, 404, 'a media protocol')
    const kind = await event('sip', 'ring', { call_id: 'x', ...parties })
    t.equal(kind.statusCode, 400)
    t.match(kind.json(), { code: 'REALTIME_UNKNOWN_EVENT', message: 'unsupported event "ring"' })
    const bad = await event('sip', 'invite', { call_id: 'x', from: '+1' })
    t.equal(bad.statusCode, 400)
    t.match(bad.json(), { code: 'VALIDATION_FAILED', message: /to/ })
    const extra = await app.inject({
      method: 'POST',
      url: '/api/voice/protocols/sip/call-events/invite',
      headers: h.agent,
      payload: { payload: { call_id: 'x', ...parties, colour: 'red' } },
    })
    t.equal(extra.statusCode, 400, 'unknown fields are refused')
    const unscoped = await event(
      'sip',
      'invite',
      { call_id: 'x', ...parties },
      await as(principal({ kind: 'admin', tenant_id: '', workspace_id: '' })),
    )
    t.equal(unscoped.statusCode, 400, 'a call is made in a concrete scope')
  })

  t.test('an invite may join an existing conversation; hangup leaves it open', async (t) => {
    const started = await conv.inject({
      method: 'POST',
      url: '/internal/sessions',
      headers: h.service,
      payload: { sender: 'customer', customer_id: 'cust-1', content: 'Can you call me?' },
    })
    t.equal(started.statusCode, 201, started.body)
    const chat = started.json().session.id as string
    const invite = await ok('sip-ws', 'invite', { call_id: 'call-3', conversation_id: chat, ...parties })
    t.equal(invite.conversation_id, chat)
    await ok('sip-ws', 'answer', { call_id: 'call-3', ...parties })
    const said = await transcript({ call_id: 'call-3', content: 'Hi, it is me.', finalized: true })
    t.equal(said.statusCode, 201)
    const mismatch = await event('sip-ws', 'hold', { call_id: 'call-3', conversation_id: 'another', ...parties })
    t.equal(mismatch.statusCode, 409, 'an event naming another conversation')
    await ok('sip-ws', 'hangup', { call_id: 'call-3', ...parties })
    t.equal((await session(chat)).status, 'active', 'the chat goes on')
    const lines = await messages(chat)
    t.match(
      lines.map((m: { sender: string; content: string }) => [m.sender, m.content]),
      [
        ['customer', 'Can you call me?'],
        ['system', 'Voice call from +15550001 to +15550002 started.'],
        ['customer', 'Hi, it is me.'],
        ['system', 'Voice call ended.'],
      ],
    )
    t.equal(lines[2].sender_id, 'cust-1', "the caller's words are the conversation's customer's")

    const foreign = await conv.inject({
      method: 'POST',
      url: '/internal/sessions',
      headers: await as(servicePrincipal({ tenant_id: 'globex' })),
      payload: { sender: 'customer', customer_id: 'cust-9', content: 'Hello' },
    })
    const theirs = foreign.json().session.id as string
    const cross = await event('sip', 'invite', { call_id: 'call-4', conversation_id: theirs, ...parties })
    t.equal(cross.statusCode, 404, "another tenant's conversation is not found")
    t.equal(cross.json().code, 'REALTIME_CONVERSATION_NOT_FOUND')
    t.equal((await event('sip', 'answer', { call_id: 'call-4', ...parties })).statusCode, 404, 'and no call was made')
  })

  t.test('media events', async (t) => {
    await ok('sip', 'invite', { call_id: 'call-5', ...parties })
    const media = (protocol: string, kind: string, payload: Record<string, unknown>, headers = h.agent) =>
      app.inject({
        method: 'POST',
        url: `/api/voice/protocols/${protocol}/media-events/${kind}`,
        headers,
        payload: { payload },
      })
    const at = '2026-11-24T10:00:00.000Z'
    const started = await media('webrtc', 'session_started', {
      call_id: 'call-5',
      occurred_at: at,
      metadata: { ice: 'ok' },
    })
    t.equal(started.statusCode, 200, started.body)
    t.match(started.json(), {
      event_id: 'webrtc-session_started-call-5',
      protocol: 'webrtc',
      kind: 'session_started',
      call_id: 'call-5',
      conversation_id: /./,
      track_id: null,
      occurred_at: at,
      metadata: { ice: 'ok' },
    })
    t.same(
      (await media('webrtc', 'session_started', { call_id: 'call-5', occurred_at: at })).json(),
      started.json(),
      'replay',
    )
    const muted = await media('srtp', 'track_muted', { call_id: 'call-5', track_id: 'audio-0' })
    t.match(muted.json(), { event_id: 'srtp-track_muted-call-5', track_id: 'audio-0' })
    t.match((await media('srtp', 'track_muted', { call_id: 'call-5', track_id: 'audio-0' })).json(), {
      event_id: 'srtp-track_muted-call-5-2',
    })
    t.equal((await media('sip', 'session_started', { call_id: 'call-5' })).statusCode, 404, 'a signalling protocol')
    t.equal((await media('rtp', 'session_exploded', { call_id: 'call-5' })).json().code, 'REALTIME_UNKNOWN_EVENT')
    t.equal((await media('rtp', 'session_closed', { call_id: 'nope' })).statusCode, 404)
    t.equal((await media('rtp', 'session_closed', { call_id: 'call-5' }, h.other)).statusCode, 404, 'another tenant')
  })

  t.test('racing requests: one call, one conversation, one event each', async (t) => {
    const invites = await Promise.all(
      Array.from({ length: 5 }, () => event('sip', 'invite', { call_id: 'call-race', ...parties })),
    )
    t.same(
      invites.map((r) => r.statusCode),
      [200, 200, 200, 200, 200],
    )
    const answers = invites.map((r) => r.json())
    t.equal(new Set(answers.map((a) => a.conversation_id)).size, 1, 'every answer names the one conversation')
    t.equal(new Set(answers.map((a) => a.event_id)).size, 1)
    const holds = await Promise.all([
      ok('sip', 'answer', { call_id: 'call-race', ...parties }),
      ok('sip', 'answer', { call_id: 'call-race', ...parties }),
      ok('sip', 'answer', { call_id: 'call-race', ...parties }),
    ])
    t.same(holds[0], holds[1])
    t.same(holds[1], holds[2])
    const dtmf = await Promise.all(
      ['1', '2', '3', '4'].map((d) => ok('sip', 'dtmf', { call_id: 'call-race', ...parties, dtmf: d })),
    )
    t.same(
      dtmf.map((e) => e.event_id).sort(),
      ['sip-dtmf-call-race', 'sip-dtmf-call-race-2', 'sip-dtmf-call-race-3', 'sip-dtmf-call-race-4'],
      'each press its own sequence',
    )
  })

  t.test("another tenant's or workspace's call is not found on every route", async (t) => {
    await ok('sip', 'invite', { call_id: 'call-6', ...parties })
    for (const headers of [h.other, h.otherWs]) {
      for (const kind of ['answer', 'hold', 'hangup', 'dtmf', 'transfer']) {
        const res = await event('sip', kind, { call_id: 'call-6', ...parties, dtmf: '1' }, headers)
        t.equal(res.statusCode, 404, kind)
        t.equal(res.json().code, 'REALTIME_CALL_NOT_FOUND')
      }
      t.equal((await transcript({ call_id: 'call-6', content: 'x', finalized: true }, headers)).statusCode, 404)
      const list = await app.inject({ method: 'GET', url: '/api/voice/transcripts?call_id=call-6', headers })
      t.equal(list.statusCode, 404)
      const all = await app.inject({ method: 'GET', url: '/api/voice/transcripts', headers })
      t.equal(all.json().total, 0, 'none of acme listed')
    }
    // the same call id in another tenant is another call, with its own conversation
    const theirs = await event('sip', 'invite', { call_id: 'call-6', ...parties }, h.other)
    t.equal(theirs.statusCode, 200)
    const ours = await ok('sip', 'invite', { call_id: 'call-6', ...parties })
    t.not(theirs.json().conversation_id, ours.conversation_id)
    t.equal((await ok('sip', 'answer', { call_id: 'call-6', ...parties })).call_status, 'active')
    const theirAnswer = await event('sip', 'hangup', { call_id: 'call-6', ...parties }, h.other)
    t.equal(theirAnswer.json().call_status, 'ended', 'each tenant moves its own call')
  })
})
