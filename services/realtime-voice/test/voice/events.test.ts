import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as, principal, streamEvents, voiceApps } from './helpers.ts'

const agent = principal()

inEachStorageMode(t, 'voice events and audit', async (t, mode) => {
  const { app, bus } = await voiceApps(t, mode)
  const headers = await as(agent)
  const post = async (url: string, payload: object, status = 200) => {
    const res = await app.inject({ method: 'POST', url, headers, payload })
    t.equal(res.statusCode, status, res.statusCode === status ? url : res.body)
    return res.json()
  }
  const call = { call_id: 'ev-1', from: '+15550300', to: '+15550400' }
  const invite = await post('/api/voice/protocols/sip/call-events/invite', { payload: call })
  await post('/api/voice/protocols/sip/call-events/answer', { payload: call })
  const rec = await post('/api/voice/recordings/start', { call_id: 'ev-1' }, 201)
  await post('/api/voice/recordings/stop', { recording_id: rec.id })
  const said = await post(
    '/api/voice/transcripts',
    { call_id: 'ev-1', content: 'Hello', language: 'en', finalized: true },
    201,
  )
  await post('/api/voice/transcripts', { call_id: 'ev-1', content: 'Hel', language: 'en', finalized: false }, 201)
  await post('/api/voice/protocols/sip/call-events/hangup', { payload: call })
  // a refused write is audited too (a hold after hangup; a repeated answer would be a replay, 200)
  const refused = await app.inject({
    method: 'POST',
    url: '/api/voice/protocols/sip/call-events/hold',
    headers,
    payload: { payload: call },
  })
  t.equal(refused.statusCode, 409)

  t.test('realtime.* on the REALTIME stream, in order, in the call scope', async (t) => {
    const events = await waitFor(async () => {
      const all = await streamEvents(bus, 'REALTIME')
      return all.length >= 6 ? all : undefined
    }, 10_000)
    t.same(
      events.map((e) => e.type),
      [
        'realtime.call.started',
        'realtime.call.answered',
        'realtime.recording.started',
        'realtime.recording.stopped',
        'realtime.transcript.finalized',
        'realtime.call.ended',
      ],
      'one per fact; the interim transcript has none',
    )
    for (const e of events) t.match(e, { tenant_id: 'acme', workspace_id: 'support', actor: { user_id: 'agent-1' } })
    t.match(events[0]!.data, {
      call_id: 'ev-1',
      protocol: 'sip',
      status: 'ringing',
      from: '+15550300',
      conversation_id: invite.conversation_id,
    })
    t.match(events[5]!.data, { status: 'ended', ended_at: /./, answered_at: /./ })
    t.match(events[3]!.data, { recording_id: rec.id, status: 'stopped', provider: 'local' })
    t.match(events[4]!.data, { transcript_id: said.id, message_id: said.message_id, speaker: 'caller' })
    t.notOk('content' in events[4]!.data, "a transcript's words stay out of its event")
  })

  t.test('management writes are audited, refusals included, with the call before and after', async (t) => {
    const records = await waitFor(async () => {
      const all = (await streamEvents(bus, 'AUDIT')).filter((e) => e.data.actor_user_id === 'agent-1')
      return all.length >= 8 ? all : undefined
    }, 10_000)
    const actions = records.map((r) => `${r.data.action} ${r.data.status_code}`)
    t.same(actions, [
      'voice.call_event 200',
      'voice.call_event 200',
      'voice.recording_start 201',
      'voice.recording_stop 200',
      'voice.transcript_create 201',
      'voice.transcript_create 201',
      'voice.call_event 200',
      'voice.call_event 409',
    ])
    const answer = records[1]!.data
    t.match(answer, {
      resource_type: 'voice_call',
      resource_id: 'ev-1',
      route: '/api/voice/protocols/:protocol/call-events/:event',
      success: true,
      before_json: { status: 'ringing' },
      after_json: { status: 'active' },
    })
    t.match(records[7]!.data, { success: false, resource_id: 'ev-1' })
  })
})
