import type { Envelope } from '@switchboard/contracts'
import type { EventBus } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { ACME, agent, aiApp, call, GLOBEX, platformAdmin } from '../helpers/app.ts'
import { sessionsStandIn } from '../helpers/conversations-stand-in.ts'

// The conversation a question names is announced with its answer (ai.query.answered): it is one of the caller's
// workspace, and another tenant's session is answered exactly like an id nobody has.

const answeredFor = async (bus: EventBus, sessionId: string) => {
  const found: Envelope[] = []
  await bus.replay('AI', {}, async (d) => {
    if ((d.envelope.data as { session_id?: string }).session_id === sessionId) found.push(d.envelope)
  })
  return found
}

inEachStorageMode(t, 'AI questions name a conversation of their own workspace', async (t, mode) => {
  const conv = await sessionsStandIn({ 's-acme': ACME, 's-globex': GLOBEX })
  t.teardown(conv.close)
  const { app, svc } = await aiApp(t, mode, { UPSTREAM_CONVERSATIONS: conv.url })
  const ask = (session_id: string, who = agent()) =>
    call(app, who, 'POST', '/api/v1/ai/query', { query: 'when are refunds paid', session_id })

  t.test('a session of the workspace: answered and announced with it', async (t) => {
    const res = await ask('s-acme')
    t.equal(res.statusCode, 200, res.body)
    const [event] = await waitFor(async () => {
      const found = await answeredFor(svc.bus, 's-acme')
      return found.length ? found : undefined
    })
    t.match(event, { tenant_id: 'acme', workspace_id: 'support', data: { session_id: 's-acme' } })
    t.equal((await ask('s-globex', platformAdmin())).statusCode, 200, 'an unscoped caller reads every tenant anyway')
  })

  t.test("another tenant's session is answered like one nobody has: 400 naming the field", async (t) => {
    const foreign = await ask('s-globex')
    const nobody = await ask(`s-nobody-${mode}`)
    for (const [ref, res] of [
      ['s-globex', foreign],
      [`s-nobody-${mode}`, nobody],
    ] as const) {
      t.equal(res.statusCode, 400, ref)
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'request_id'])
      t.equal(res.json().code, 'AI_UNKNOWN_SESSION')
      t.equal(res.json().message, `body.session_id: no session ${ref} in this workspace`)
    }
    const inAcme = (await answeredFor(svc.bus, 's-globex')).filter((e) => e.tenant_id === 'acme')
    t.same(inAcme, [], 'no answer was announced in acme with globex’s session')
  })
})

inEachStorageMode(t, 'AI questions without conversations configured', async (t, mode) => {
  const { app } = await aiApp(t, mode)
  const res = await call(app, agent(), 'POST', '/api/v1/ai/query', { query: 'refunds', session_id: 's-1' })
  t.equal(res.statusCode, 409, 'no session can be known: the configuration, said so')
  t.equal(res.json().code, 'AI_CONVERSATIONS_NOT_CONFIGURED')
  const bare = await call(app, agent(), 'POST', '/api/v1/ai/query', { query: 'refunds' })
  t.equal(bare.statusCode, 200, 'a question without a session needs none')
})
