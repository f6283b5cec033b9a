import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { hashVisitorCredential as hash } from '../../src/domain/visitor-credential.ts'
import { conversationsApp } from '../helpers/app.ts'
import { ACME, seedAgents, seedSession } from '../helpers/queue.ts'

const q = `tenant_id=${ACME.tenant_id}&workspace_id=${ACME.workspace_id}`

inEachStorageMode(t, "the widget's public paths: availability and a visitor's rating", async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode)
  const get = async (url: string) => app.inject({ method: 'GET', url })

  await t.test('availability: online agents routing would use', async (t) => {
    t.same((await get(`/public/widget/availability?${q}`)).json(), { agents_online: 0, open: false })
    await seedAgents(svc, [
      { user_id: 'on-1' },
      { user_id: 'on-2', max_concurrent: 1 },
      { user_id: 'away', status: 'away' },
      { user_id: 'off', status: 'offline' },
      { user_id: 'elsewhere', scope: { tenant_id: 'globex', workspace_id: 'support' } },
    ])
    t.same((await get(`/public/widget/availability?${q}`)).json(), { agents_online: 2, open: true })
    const bad = await get('/public/widget/availability?tenant_id=acme')
    t.equal(bad.statusCode, 400)
    t.equal(bad.json().code, 'VALIDATION_FAILED')
  })

  await t.test("a rating: the visitor's credential, a closed session, tickets to store it", async (t) => {
    const credential = 'c'.repeat(43)
    const open = await seedSession(svc, { customer_id: null, visitor_id: 'v-1', visitor_secret_hash: hash(credential) })
    const closed = await seedSession(svc, {
      customer_id: null,
      visitor_id: 'v-2',
      visitor_secret_hash: hash(credential),
      status: 'closed',
    })
    const rate = (id: string, cred: string | undefined, payload: object = { rating: 4 }) =>
      app.inject({
        method: 'POST',
        url: `/public/widget/sessions/${id}/satisfaction`,
        payload,
        headers: cred ? { 'x-visitor-credential': cred } : {},
      })
    const wrong = await rate(closed.id, 'd'.repeat(43))
    t.equal(wrong.statusCode, 404)
    t.equal(wrong.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND')
    const missing = await rate('no-such-session', credential)
    t.same(Object.keys(missing.json()).sort(), Object.keys(wrong.json()).sort())
    t.equal(missing.json().code, 'CONVERSATIONS_SESSION_NOT_FOUND', 'a wrong credential reads as a missing session')
    const notClosed = await rate(open.id, credential)
    t.equal(notClosed.statusCode, 409)
    t.equal(notClosed.json().code, 'CONVERSATIONS_SESSION_NOT_CLOSED')
    t.equal((await rate(closed.id, undefined)).statusCode, 400, 'no credential')
    t.equal((await rate(closed.id, credential, { rating: 0 })).statusCode, 400, 'a rating off 1..5')
    const noTickets = await rate(closed.id, credential)
    t.equal(noTickets.statusCode, 503, 'UPSTREAM_TICKETS not set: nowhere to store it')
    t.equal(noTickets.json().code, 'CONVERSATIONS_TICKETS_UNAVAILABLE')
  })
})
