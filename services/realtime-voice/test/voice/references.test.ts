import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { callerAddress } from '../../src/domain/caller-address.ts'
import { as, principal, servicePrincipal, voiceApps } from './helpers.ts'

// What a voice request names and this service (or conversations) stores: a record of one tenant never points at
// another tenant's person or record.

t.test('callerAddress: a URI, never a bare string that could be a person id', async (t) => {
  t.equal(callerAddress('+15550001'), 'tel:+15550001')
  t.equal(callerAddress('0193a1b2-0000-7000-8000-000000000001'), 'tel:0193a1b2-0000-7000-8000-000000000001')
  t.equal(callerAddress('sip:alice@pbx.example.com'), 'sip:alice@pbx.example.com')
  t.equal(callerAddress('SIPS:bob@pbx.example.com'), 'SIPS:bob@pbx.example.com')
  t.equal(callerAddress('tel:+15550001'), 'tel:+15550001')
})

inEachStorageMode(t, 'voice references', async (t, mode) => {
  const { app, conv } = await voiceApps(t, mode)
  const agent = await as(principal())
  const globexAgent = await as(principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' }))
  const service = await as(servicePrincipal())
  const post = (url: string, payload: unknown, headers = agent) =>
    app.inject({ method: 'POST', url, headers, payload: payload as object })
  const invite = async (call_id: string, from: string, headers = agent) => {
    const res = await post(
      '/api/voice/protocols/sip/call-events/invite',
      { payload: { call_id, from, to: '+1555' } },
      headers,
    )
    t.equal(res.statusCode, 200, res.body)
    return res.json()
  }

  t.test("an invite's `from` becomes the conversation's caller address, never another tenant's person", async (t) => {
    // a user id of another tenant, sent as the caller: the conversation must not name that person as its customer
    const someone = '0193a1b2-0000-7000-8000-00000000abcd'
    const call = await invite(`ref-1-${mode}`, someone)
    const session = (
      await conv.inject({ method: 'GET', url: `/internal/sessions/${call.conversation_id}`, headers: service })
    ).json()
    t.equal(session.customer_id, `tel:${someone}`, 'an address, which names nobody')
    t.not(session.customer_id, someone)
    t.equal(call.from, someone, "the call keeps the caller's address as sent")
  })

  t.test('a media event names a recording of its own call, else 400 — another tenant’s like none', async (t) => {
    await invite(`ref-2-${mode}`, '+15550001')
    await invite(`ref-3-${mode}`, '+15550002')
    await invite(`ref-g-${mode}`, '+15550003', globexAgent)
    const started = async (callId: string, headers = agent) => {
      const res = await post('/api/voice/recordings/start', { call_id: callId }, headers)
      t.equal(res.statusCode, 201, res.body)
      return res.json().id as string
    }
    const own = await started(`ref-2-${mode}`)
    const otherCall = await started(`ref-3-${mode}`)
    const globex = await started(`ref-g-${mode}`, globexAgent)
    const media = (recording_id: string) =>
      post('/api/voice/protocols/webrtc/media-events/recording_started', {
        payload: { call_id: `ref-2-${mode}`, recording_id },
      })
    for (const ref of [globex, otherCall, `nobody-${mode}`]) {
      const res = await media(ref)
      t.equal(res.statusCode, 400, `${ref}: 400`)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
      t.equal(res.json().code, 'REALTIME_UNKNOWN_RECORDING')
      t.equal(res.json().message, `body.payload.recording_id: no recording ${ref} of call ref-2-${mode}`)
    }
    const ok = await media(own)
    t.equal(ok.statusCode, 200, ok.body)
    t.equal(ok.json().recording_id, own)
  })
})
