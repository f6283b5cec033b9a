// Voice (`/api/voice/*` on realtime-voice) end to end through the gateway, in both run modes: a call's invite opens
// a conversation of channel `voice` in conversations, its finalized transcripts become that conversation's messages
// (seen live by a monitoring socket of the hub), its hangup closes it; an invite naming a widget's conversation
// joins it and leaves it open; errors: unknown protocol 404, unknown event 400, unknown call 404, another tenant's
// call 404, and the recording provider switched off (VOICE_RECORDING_PROVIDER=disabled) 503 on writes only.
import { randomUUID } from 'node:crypto'
import { conversationsKit, must, selectors } from './harness/conversations-kit.ts'
import type { CallOptions, Reply } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { openSocket } from './harness/realtime-kit.ts'

const env = { VOICE_RECORDING_PROVIDER: 'disabled' }

inEachMode('realtime: voice calls through the gateway', { env }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('rtvoice')
  const alice = await kit.agent(scope, 'alice')
  // an agent of the workspace drives the calls: voice.* is an agent's permission
  const asAgent: CallOptions = { token: (await kit.agentLogin(alice)).token }
  const event = (protocol: string, kind: string, payload: Record<string, unknown>, as = asAgent) =>
    api.post(`/api/voice/protocols/${protocol}/call-events/${kind}`, { payload }, as)
  const transcript = (body: Record<string, unknown>) => api.post('/api/voice/transcripts', body, asAgent)
  const messagesOf = async (sessionId: string) =>
    must(await api.get(`/api/omni/sessions/${sessionId}/messages?limit=200`, asAgent), 200, 'messages').items as any[]
  const sessionOf = async (sessionId: string) =>
    must(await api.get(`/api/omni/sessions/${sessionId}`, asAgent), 200, 'session')

  const callId = `call-${kit.suffix}-1@pbx.example.com`
  const caller = '+15550100'
  const ctx = { conversationId: '' }

  t.test('invite → a voice conversation; finalized transcripts → its messages; hangup → closed', async (t) => {
    const protocols = must(await api.get('/api/voice/protocols', asAgent), 200, 'protocols')
    t.same(
      protocols.data.map((p: any) => `${p.type}:${p.id}`),
      ['signaling:sip', 'signaling:sip-ws', 'signaling:pstn-provider', 'media:webrtc', 'media:rtp', 'media:srtp'],
      'the registered protocols',
    )

    const invite = await event('sip', 'invite', { call_id: callId, from: caller, to: '+15550199' })
    t.equal(invite.status, 200, invite.text)
    t.match(invite.body, {
      event_id: `sip-invite-${callId}`,
      kind: 'invite',
      call_id: callId,
      call_status: 'ringing',
      conversation_id: String,
      from: caller,
    })
    ctx.conversationId = invite.body.conversation_id
    const conversation = await sessionOf(ctx.conversationId)
    t.match(
      conversation,
      { channel: 'voice', status: 'active', customer_id: `tel:${caller}`, tenant_id: scope.tenant_id, agent_id: null },
      'conversations holds a conversation of channel voice, the caller (its address as a URI) its customer',
    )
    const opened = await messagesOf(ctx.conversationId)
    t.match(opened, [{ sender: 'customer', content: `Voice call from ${caller} to +15550199` }])

    const replay = await event('sip', 'invite', { call_id: callId, from: caller, to: '+15550199' })
    t.equal(replay.status, 200, replay.text)
    t.same(replay.body, invite.body, 'a retried invite is the first one, replayed: no second conversation')

    // a monitoring service watches the conversation through the hub (a service socket of the scope)
    const monitor = await openSocket(system.url, { token: kit.service, headers: selectors(scope) }, t)
    monitor.send({ type: 'join', data: { session_id: ctx.conversationId } })
    t.match((await monitor.next('session')).data, { session_id: ctx.conversationId, status: 'active' })

    const answered = await event('sip', 'answer', { call_id: callId, from: caller, to: '+15550199' })
    t.match(answered.body, { call_status: 'active', conversation_id: ctx.conversationId })
    const muted = await api.post(
      '/api/voice/protocols/webrtc/media-events/track_muted',
      { payload: { call_id: callId, track_id: 'audio-1' } },
      asAgent,
    )
    t.equal(muted.status, 200, muted.text)
    t.match(muted.body, { kind: 'track_muted', track_id: 'audio-1', conversation_id: ctx.conversationId })

    const interim = await transcript({ call_id: callId, content: 'I need hel', language: 'en', finalized: false })
    t.equal(interim.status, 201, interim.text)
    t.match(interim.body, { finalized: false, message_id: null, speaker: 'caller' }, 'an interim one is only kept')
    const said = await transcript({
      call_id: callId,
      content: 'I need help with my bill',
      language: 'en',
      finalized: true,
    })
    t.equal(said.status, 201, said.text)
    t.match(said.body, { finalized: true, message_id: String, conversation_id: ctx.conversationId, speaker: 'caller' })
    const reply = await transcript({
      call_id: callId,
      content: 'Let me pull up your account',
      language: 'en',
      finalized: true,
      speaker: 'agent',
    })
    t.equal(reply.status, 201, reply.text)

    const live = await monitor.next('text-message', { match: (f) => f.data.message_id === said.body.message_id })
    t.match(live.data, {
      sender: 'customer',
      sender_id: `tel:${caller}`,
      content: 'I need help with my bill',
      metadata: { source: 'voice', speaker: 'caller', transcript_id: said.body.id, call_id: callId, language: 'en' },
    })
    t.match((await monitor.next('system', { match: (f) => f.data.message_id === reply.body.message_id })).data, {
      content: 'Let me pull up your account',
      metadata: { source: 'voice', speaker: 'agent', transcript_id: reply.body.id },
    })
    const withWords = await messagesOf(ctx.conversationId)
    t.same(
      withWords.map((m) => [m.sender, m.content]),
      [
        ['customer', `Voice call from ${caller} to +15550199`],
        ['customer', 'I need help with my bill'],
        ['system', 'Let me pull up your account'],
      ],
      'the finalized words are messages of the conversation; the interim one is not',
    )
    t.equal(withWords[1].id, said.body.message_id)
    const listed = must(
      await api.get(`/api/voice/transcripts?call_id=${encodeURIComponent(callId)}`, asAgent),
      200,
      'list',
    )
    t.same(
      listed.data.map((x: any) => [x.content, x.finalized, x.message_id]),
      [
        ['I need hel', false, null],
        ['I need help with my bill', true, said.body.message_id],
        ['Let me pull up your account', true, reply.body.message_id],
      ],
      'every transcript, in the order said',
    )

    const hangup = await event('sip', 'hangup', { call_id: callId, from: caller, to: '+15550199' })
    t.equal(hangup.status, 200, hangup.text)
    t.match(hangup.body, { call_status: 'ended', event_id: `sip-hangup-${callId}` })
    t.match(await sessionOf(ctx.conversationId), { status: 'closed', ended_at: String }, 'hangup closed it')
    t.match(
      (await monitor.next('session', { match: (f) => f.data.status === 'closed' })).data,
      { session_id: ctx.conversationId, status: 'closed' },
      'the monitoring socket hears it close',
    )
    const again = await event('sip', 'hangup', { call_id: callId, from: caller, to: '+15550199' })
    t.same(again.body, hangup.body, 'a second hangup is the first, replayed')
    isError(
      t,
      await event('sip', 'hold', { call_id: callId, from: caller, to: '+15550199' }),
      409,
      'REALTIME_CALL_INVALID_TRANSITION',
      'an ended call takes no hold',
    )
    const late = await transcript({ call_id: callId, content: 'Bye then', language: 'en', finalized: true })
    t.equal(late.status, 201, late.text)
    t.equal(late.body.message_id, null, 'a transcript after the hangup is kept without a message')
    t.match(await sessionOf(ctx.conversationId), { status: 'closed' }, 'and does not reopen the conversation')
    t.equal((await messagesOf(ctx.conversationId)).length, withWords.length + 1, 'only the close notice was added')
  })

  t.test("an invite naming a widget's conversation joins it; hangup leaves it open", async (t) => {
    const widget = await openSocket(system.url, { query: { ...scope } }, t)
    widget.send({ type: 'text-message', data: 'Can you call me back?' })
    const sessionId: string = (await widget.next('session')).data.session_id
    await widget.next('text-message')
    const linked = `call-${kit.suffix}-2`
    const invite = await event('sip-ws', 'invite', {
      call_id: linked,
      conversation_id: sessionId,
      from: 'sip:visitor@widget.example.com',
      to: 'sip:support@pbx.example.com',
    })
    t.equal(invite.status, 200, invite.text)
    t.equal(invite.body.conversation_id, sessionId, 'the call is linked to the named conversation')
    t.match((await widget.next('system')).data, { content: /Voice call from sip:visitor@widget\.example\.com/ })
    const words = await transcript({
      call_id: linked,
      content: 'Thanks for calling back',
      language: 'en',
      finalized: true,
    })
    t.equal(words.status, 201, words.text)
    t.match((await widget.next('system', { match: (f) => f.data.content === 'Thanks for calling back' })).data, {
      metadata: { source: 'voice', speaker: 'caller' },
    })
    const hangup = await event('sip-ws', 'hangup', {
      call_id: linked,
      from: 'sip:visitor@widget.example.com',
      to: 'sip:support@pbx.example.com',
    })
    t.match(hangup.body, { call_status: 'ended' })
    t.match((await widget.next('system', { match: (f) => f.data.content === 'Voice call ended.' })).data, {
      metadata: { source: 'voice', event: 'hangup' },
    })
    t.match(await sessionOf(sessionId), { status: 'active', channel: 'web' }, 'the widget conversation stays open')

    // a conversation of another workspace is as missing as none
    const elsewhere = kit.freshScope('rtvoicex')
    const stranger = await kit.hub(elsewhere).open('Hello from elsewhere')
    isError(
      t,
      await event('sip', 'invite', {
        call_id: `call-${kit.suffix}-3`,
        conversation_id: stranger.session.id,
        from: caller,
        to: '+15550199',
      }),
      404,
      'REALTIME_CONVERSATION_NOT_FOUND',
      "another workspace's conversation",
    )
  })

  t.test('unknown protocol 404, unknown event 400, unknown or foreign call 404, recording disabled 503', async (t) => {
    const payload = { call_id: `call-${kit.suffix}-9`, from: caller, to: '+15550199' }
    isError(
      t,
      await event('carrier-pigeon', 'invite', payload),
      404,
      'REALTIME_UNKNOWN_PROTOCOL',
      'an unknown protocol',
    )
    isError(t, await event('webrtc', 'invite', payload), 404, 'REALTIME_UNKNOWN_PROTOCOL', 'a media protocol for calls')
    isError(
      t,
      await api.post('/api/voice/protocols/sip/media-events/track_muted', { payload: { call_id: callId } }, asAgent),
      404,
      'REALTIME_UNKNOWN_PROTOCOL',
      'a signalling protocol for media',
    )
    isError(t, await event('sip', 'teleport', payload), 400, 'REALTIME_UNKNOWN_EVENT', 'an unknown event')
    isError(t, await event('sip', 'answer', payload), 404, 'REALTIME_CALL_NOT_FOUND', 'an event of an unknown call')
    isError(
      t,
      await transcript({ call_id: payload.call_id, content: 'x', language: 'en', finalized: true }),
      404,
      'REALTIME_CALL_NOT_FOUND',
      'a transcript of an unknown call',
    )

    // another workspace's staff: the call is as missing as none
    const foreign = kit.svc(kit.freshScope('rtvoicey'))
    const path = `/api/voice/transcripts?call_id=${encodeURIComponent(callId)}`
    isError(t, await api.get(path, foreign), 404, 'REALTIME_CALL_NOT_FOUND', "another workspace's call")
    isError(
      t,
      await event('sip', 'hold', { call_id: callId, from: caller, to: '+15550199' }, foreign),
      404,
      'REALTIME_CALL_NOT_FOUND',
      "an event on another workspace's call",
    )

    // the provider is switched off: writes are 503, reads still answer
    isError(
      t,
      await api.post('/api/voice/recordings/start', { call_id: callId }, asAgent),
      503,
      'REALTIME_RECORDING_DISABLED',
      'start',
    )
    isError(
      t,
      await api.post('/api/voice/recordings/stop', { recording_id: randomUUID() }, asAgent),
      503,
      'REALTIME_RECORDING_DISABLED',
      'stop',
    )
    isError(t, await postAudio(system.url, randomUUID(), asAgent), 503, 'REALTIME_RECORDING_DISABLED', 'audio')
    isError(
      t,
      await api.get(`/api/voice/recordings/${randomUUID()}`, asAgent),
      404,
      'REALTIME_RECORDING_NOT_FOUND',
      'a read still answers',
    )
  })
})

/** `POST /api/voice/recordings/:id/audio` with a raw audio body, as a recorder sends it. */
async function postAudio(base: string, recordingId: string, opts: CallOptions): Promise<Reply> {
  const res = await fetch(new URL(`/api/voice/recordings/${recordingId}/audio`, base), {
    method: 'POST',
    headers: { 'content-type': 'audio/wav', authorization: `Bearer ${opts.token}` },
    body: new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]),
    signal: AbortSignal.timeout(15_000),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined }
}
