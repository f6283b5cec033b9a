import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, principal, voiceApps } from './helpers.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const otherWorkspace = principal({ user_id: 'agent-8', workspace_id: 'sales' })
const admin = principal({
  user_id: 'admin-1',
  kind: 'admin',
  roles: ['admin'],
  permissions: ['*'],
  tenant_id: '',
  workspace_id: '',
})

// a few bytes of a WAV file: conversations' uploads check types they know the signature of, and keep the rest as sent
const WAV = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(64, 7)])

inEachStorageMode(t, 'voice recordings', async (t, mode) => {
  const { app, conv } = await voiceApps(t, mode)
  const h = {
    agent: await as(agent),
    other: await as(otherTenant),
    otherWs: await as(otherWorkspace),
    admin: await as(admin),
  }
  const post = (url: string, payload: unknown, headers = h.agent) =>
    app.inject({ method: 'POST', url, headers, payload: payload as object })
  const invite = async (callId: string) => {
    const res = await post('/api/voice/protocols/sip/call-events/invite', {
      payload: { call_id: callId, from: '+15550100', to: '+15550200' },
    })
    t.equal(res.statusCode, 200, res.body)
    return res.json()
  }
  const start = (callId: string, headers = h.agent, extra = {}) =>
    post('/api/voice/recordings/start', { call_id: callId, ...extra }, headers)
  const audio = (id: string, body: Buffer, contentType: string, headers = h.agent) =>
    app.inject({
      method: 'POST',
      url: `/api/voice/recordings/${id}/audio`,
      headers: { ...headers, 'content-type': contentType },
      payload: body,
    })

  t.test('start, get, stop; audio kept in the conversation and read back through conversations', async (t) => {
    const call = await invite('rec-1')
    t.equal((await start('no-such-call')).statusCode, 404)
    const res = await start('rec-1')
    t.equal(res.statusCode, 201, res.body)
    const rec = res.json()
    t.match(rec, {
      id: /./,
      call_id: 'rec-1',
      conversation_id: call.conversation_id,
      provider: 'local',
      status: 'recording',
      stopped_at: null,
      duration_seconds: null,
      upload_id: null,
      audio_url: null,
      tenant_id: 'acme',
      workspace_id: 'support',
    })
    const again = await start('rec-1')
    t.equal(again.statusCode, 409, 'one recording at a time')
    t.equal(again.json().code, 'REALTIME_RECORDING_ACTIVE')
    const provider = await start('rec-1', h.agent, { provider: 'twilio' })
    t.equal(provider.statusCode, 400)
    t.match(provider.json().message, /provider/)

    const got = await app.inject({ method: 'GET', url: `/api/voice/recordings/${rec.id}`, headers: h.agent })
    t.equal(got.statusCode, 200)
    t.same(got.json(), rec)

    const stopped = await post('/api/voice/recordings/stop', { recording_id: rec.id })
    t.equal(stopped.statusCode, 200, stopped.body)
    t.match(stopped.json(), { id: rec.id, status: 'stopped', stopped_at: /./ })
    t.type(stopped.json().duration_seconds, 'number')
    const twice = await post('/api/voice/recordings/stop', { recording_id: rec.id })
    t.equal(twice.statusCode, 409)
    t.equal(twice.json().code, 'REALTIME_RECORDING_STOPPED')

    const kept = await audio(rec.id, WAV, 'audio/wav')
    t.equal(kept.statusCode, 200, kept.body)
    const withAudio = kept.json()
    t.match(withAudio, {
      id: rec.id,
      upload_id: /^[0-9a-f-]{36}$/,
      audio_content_type: 'audio/wav',
      audio_size: WAV.byteLength,
    })
    t.equal(withAudio.audio_url, `/uploads/${withAudio.upload_id}`)
    const bytes = await conv.inject({ method: 'GET', url: withAudio.audio_url, headers: h.agent })
    t.equal(bytes.statusCode, 200, 'an agent of the scope reads it from conversations')
    t.equal(bytes.headers['content-type'], 'audio/wav')
    t.same(bytes.rawPayload, WAV, 'the bytes sent')
    const meta = await conv.inject({ method: 'GET', url: `${withAudio.audio_url}/meta`, headers: h.agent })
    t.match(meta.json(), { session_id: call.conversation_id, size: WAV.byteLength })
    t.equal(
      (await conv.inject({ method: 'GET', url: withAudio.audio_url, headers: h.other })).statusCode,
      404,
      "another tenant's agent cannot",
    )
    t.same(
      (await app.inject({ method: 'GET', url: `/api/voice/recordings/${rec.id}`, headers: h.agent })).json(),
      withAudio,
    )
    const second = await audio(rec.id, WAV, 'audio/wav')
    t.equal(second.statusCode, 409, 'one audio per recording')
    t.equal(second.json().code, 'REALTIME_RECORDING_AUDIO_EXISTS')
  })

  t.test('audio as a multipart form; wrong types and empty bodies refused', async (t) => {
    await invite('rec-2')
    const rec = (await start('rec-2')).json()
    const form = new FormData()
    form.append('file', new Blob([WAV], { type: 'audio/ogg' }), 'call.ogg')
    const request = new Request('http://x/', { method: 'POST', body: form })
    const body = Buffer.from(await request.arrayBuffer())
    const res = await audio(rec.id, body, request.headers.get('content-type')!)
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), { audio_content_type: 'audio/ogg', audio_size: WAV.byteLength })
    const meta = await conv.inject({ method: 'GET', url: `/uploads/${res.json().upload_id}/meta`, headers: h.agent })
    t.match(meta.json(), { filename: 'call.ogg', content_type: 'audio/ogg' })

    await invite('rec-3')
    const other = (await start('rec-3')).json()
    const text = await audio(other.id, Buffer.from('hello'), 'text/plain')
    t.equal(text.statusCode, 415, 'not audio')
    const json = await app.inject({
      method: 'POST',
      url: `/api/voice/recordings/${other.id}/audio`,
      headers: h.agent,
      payload: { audio: 'base64?' },
    })
    t.equal(json.statusCode, 415)
    t.equal(json.json().code, 'REALTIME_AUDIO_TYPE')
    const empty = await audio(other.id, Buffer.alloc(0), 'audio/wav')
    t.equal(empty.statusCode, 400)
    const noFile = new FormData()
    noFile.append('note', 'no audio here')
    const bare = new Request('http://x/', { method: 'POST', body: noFile })
    const missing = await audio(other.id, Buffer.from(await bare.arrayBuffer()), bare.headers.get('content-type')!)
    t.equal(missing.statusCode, 400)
    t.match(missing.json().message, /file/)
    const notAudio = new FormData()
    notAudio.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'x.pdf')
    const pdf = new Request('http://x/', { method: 'POST', body: notAudio })
    t.equal(
      (await audio(other.id, Buffer.from(await pdf.arrayBuffer()), pdf.headers.get('content-type')!)).statusCode,
      415,
    )
    const big = await audio(other.id, Buffer.alloc(10 * 1024 * 1024 + 1), 'audio/wav')
    t.equal(big.statusCode, 413, 'bounded')
    t.equal(
      (
        await post(
          '/api/voice/transcripts',
          { call_id: 'rec-3', content: 'x', language: 'en', finalized: false },
          { ...h.agent },
        )
      ).statusCode,
      201,
      'JSON routes are untouched by the audio parsers',
    )
  })

  t.test('hangup stops the running recording; an ended call is not recorded', async (t) => {
    await invite('rec-4')
    const rec = (await start('rec-4')).json()
    const hangup = await post('/api/voice/protocols/sip/call-events/hangup', {
      payload: { call_id: 'rec-4', from: '+15550100', to: '+15550200' },
    })
    t.equal(hangup.statusCode, 200)
    const got = (await app.inject({ method: 'GET', url: `/api/voice/recordings/${rec.id}`, headers: h.agent })).json()
    t.match(got, { status: 'stopped', stopped_at: /./ })
    const ended = await start('rec-4')
    t.equal(ended.statusCode, 409)
    t.equal(ended.json().code, 'REALTIME_CALL_ENDED')
  })

  t.test("another tenant's recording is not found on every route; an unscoped admin sees it", async (t) => {
    await invite('rec-5')
    const rec = (await start('rec-5')).json()
    for (const headers of [h.other, h.otherWs]) {
      t.equal((await start('rec-5', headers)).statusCode, 404, 'start on their call')
      t.equal((await app.inject({ method: 'GET', url: `/api/voice/recordings/${rec.id}`, headers })).statusCode, 404)
      const stop = await post('/api/voice/recordings/stop', { recording_id: rec.id }, headers)
      t.equal(stop.statusCode, 404)
      t.equal(stop.json().code, 'REALTIME_RECORDING_NOT_FOUND')
      t.equal((await audio(rec.id, WAV, 'audio/wav', headers)).statusCode, 404)
    }
    t.equal(
      (await app.inject({ method: 'GET', url: `/api/voice/recordings/${rec.id}`, headers: h.admin })).statusCode,
      200,
    )
    const stopped = await post('/api/voice/recordings/stop', { recording_id: rec.id }, h.admin)
    t.equal(stopped.statusCode, 200, 'an unscoped admin acts in the recording’s own scope')
    t.equal((await audio(rec.id, WAV, 'audio/wav', h.admin)).statusCode, 200)
  })
})

inEachStorageMode(t, 'voice recordings, provider disabled', async (t, mode) => {
  const { app } = await voiceApps(t, mode, { env: { VOICE_RECORDING_PROVIDER: 'disabled' } })
  const headers = await as(agent)
  const invite = await app.inject({
    method: 'POST',
    url: '/api/voice/protocols/sip/call-events/invite',
    headers,
    payload: { payload: { call_id: 'off-1', from: '+1', to: '+2' } },
  })
  t.equal(invite.statusCode, 200, 'calls go on without recordings')
  const refused = [
    await app.inject({ method: 'POST', url: '/api/voice/recordings/start', headers, payload: { call_id: 'off-1' } }),
    await app.inject({ method: 'POST', url: '/api/voice/recordings/stop', headers, payload: { recording_id: 'r' } }),
    await app.inject({
      method: 'POST',
      url: '/api/voice/recordings/r/audio',
      headers: { ...headers, 'content-type': 'audio/wav' },
      payload: WAV,
    }),
  ]
  for (const res of refused) {
    t.equal(res.statusCode, 503)
    t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
    t.match(res.json(), {
      error: 'unavailable',
      code: 'REALTIME_RECORDING_DISABLED',
      message: 'voice recording provider is disabled',
    })
  }
  t.equal(
    (await app.inject({ method: 'GET', url: '/api/voice/recordings/r', headers })).statusCode,
    404,
    'reads still answer',
  )
})
