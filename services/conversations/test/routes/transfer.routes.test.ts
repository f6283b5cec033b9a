import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { queueSettled } from '../../src/commands/queue.commands.ts'
import type { ConversationsService } from '../../src/context.ts'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { ACME, published, QUIET_QUEUE, seedAgents, seedSession } from '../helpers/queue.ts'

const GLOBEX = { tenant_id: 'globex', workspace_id: 'support' }
const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', ...GLOBEX })

const messagesOf = (svc: ConversationsService, id: string) =>
  svc.db.selectFrom('messages').selectAll().where('session_id', '=', id).orderBy('seq').execute()

inEachStorageMode(t, 'session transfer API', async (t, mode) => {
  const { app, svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
  const h = { agent: await as(agent), other: await as(otherTenant) }
  const post = (path: string, payload?: object, headers = h.agent) =>
    app.inject({ method: 'POST', url: `/api/session-transfer/${path}`, headers, ...(payload ? { payload } : {}) })
  const get = (path: string, headers = h.agent) =>
    app.inject({ method: 'GET', url: `/api/session-transfer/${path}`, headers })
  /** Every seat free again and every agent gone: each test starts from an empty floor. */
  const reset = async () => {
    await queueSettled(svc)
    await svc.db.updateTable('sessions').set({ status: 'closed' }).execute()
    await svc.db.updateTable('waiting').set({ status: 'cancelled' }).where('status', '=', 'waiting').execute()
    await svc.db.deleteFrom('agents').execute()
  }

  t.test('to-human with an agent free: straight to the best one', async (t) => {
    await reset()
    await seedAgents(svc, [
      { user_id: 'ok', rating: 4 },
      { user_id: 'billing', rating: 4, skills: ['Billing'] },
    ])
    const s = await seedSession(svc, { message_count: 2 })
    const res = await post('to-human', { session_id: s.id, reason: 'asked', target_skills: ['billing'] })
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      success: true,
      session_id: s.id,
      new_agent_id: 'billing',
      is_waiting: false,
      queued_at: null,
      transferred_at: String,
      summary: 'Conversation with customer cust-1, 2 messages so far.',
    })
    const history = await get(`history/${s.id}`)
    t.equal(history.statusCode, 200)
    t.match(history.json(), {
      count: 1,
      items: [
        { kind: 'to_human', to_agent_id: 'billing', reason: 'asked', actor_id: 'agent-1', summary: /2 messages/ },
      ],
    })
    t.match(await messagesOf(svc, s.id), [
      { sender: 'system', content: /handed over to Agent billing\. Reason: asked/ },
    ])
  })

  t.test('to-human with nobody free: the queue, with position and estimate', async (t) => {
    await reset()
    const first = await seedSession(svc)
    const second = await seedSession(svc)
    const a = await post('to-human', { session_id: first.id, priority: 'high', notes: 'vip' })
    t.equal(a.statusCode, 200)
    t.match(a.json(), {
      is_waiting: true,
      new_agent_id: null,
      waiting_id: String,
      queued_at: String,
      transferred_at: null,
      queue_position: 1,
      estimated_wait_seconds: 3600,
      summary: 'The session was added to the waiting queue.',
    })
    const b = await post('to-human', { session_id: second.id })
    t.match(b.json(), { is_waiting: true, queue_position: 2 }, 'normal behind high')
    const again = await post('to-human', { session_id: first.id })
    t.equal(again.statusCode, 200)
    t.match(
      again.json(),
      { is_waiting: true, waiting_id: a.json().waiting_id, summary: 'The session is already in the waiting queue.' },
      'already waiting: told so, nothing changes',
    )
    const session = await svc.db.selectFrom('sessions').selectAll().where('id', '=', first.id).executeTakeFirst()
    t.match(session, { status: 'waiting_human', agent_id: null, priority: 'high' }, 'the session keeps the priority')
    t.match(await messagesOf(svc, first.id), [{ sender: 'system', content: /You are in the queue for a human agent/ }])

    // one hand-over to a human this hour (the test before): one an hour
    const waiting = await get('waiting')
    t.equal(waiting.statusCode, 200)
    t.match(waiting.json(), {
      count: 2,
      items: [
        { session_id: first.id, status: 'waiting', priority: 'high', notes: 'vip', queue_position: 1 },
        { session_id: second.id, priority: 'normal', queue_position: 2, estimated_wait_seconds: 7200 },
      ],
    })
    t.equal((await get('waiting?status=cancelled&limit=1')).statusCode, 200)
    t.equal((await get('waiting?limit=0')).statusCode, 400)
    t.equal((await get('waiting?status=lost')).statusCode, 400)
    t.equal((await get('waiting', h.other)).json().count, 0, 'another tenant sees its own queue only')

    const events = await waitFor(async () => {
      const all = (await published(svc, 'conversations.queue.waiting')).filter(
        (e) => e.data.session_id === first.id || e.data.session_id === second.id,
      )
      return all.length === 2 ? all : undefined
    })
    t.match(
      events.map((e) => e.data),
      [
        { priority: 'high', position: 1, estimated_wait_seconds: 3600 },
        { priority: 'normal', position: 2, estimated_wait_seconds: 7200 },
      ],
    )

    // an agent signs in; the queue serves the high-priority session first, on demand
    await seedAgents(svc, [{ user_id: 'solo', max_concurrent: 1 }])
    const pass = await post('process-queue')
    t.equal(pass.statusCode, 200)
    t.same(pass.json(), { assigned: 1, remaining: 1 })
    t.match(await svc.db.selectFrom('sessions').selectAll().where('id', '=', first.id).executeTakeFirst(), {
      agent_id: 'solo',
      status: 'transferred',
    })
    t.match((await get(`history/${first.id}`)).json().items, [{ kind: 'queue', actor_id: 'system' }])
    t.match((await get('waiting')).json(), { count: 1, items: [{ session_id: second.id, queue_position: 1 }] })
  })

  t.test('to-human refusals', async (t) => {
    await reset()
    const taken = await seedSession(svc, { agent_id: 'someone', status: 'active' })
    const closed = await seedSession(svc, { status: 'closed' })
    const foreign = await seedSession(svc, GLOBEX)
    const expect = async (payload: object, status: number, code: string) => {
      const res = await post('to-human', payload)
      t.equal(res.statusCode, status, code)
      t.equal(res.json().code, code)
    }
    await expect({ session_id: taken.id }, 409, 'CONVERSATIONS_ALREADY_ASSIGNED')
    await expect({ session_id: closed.id }, 409, 'CONVERSATIONS_SESSION_CLOSED')
    await expect({ session_id: 'nope' }, 404, 'CONVERSATIONS_SESSION_NOT_FOUND')
    await expect({ session_id: foreign.id }, 404, 'CONVERSATIONS_SESSION_NOT_FOUND')
    await expect({}, 400, 'VALIDATION_FAILED')
    await expect({ session_id: taken.id, priority: 'asap' }, 400, 'VALIDATION_FAILED')
    await expect({ session_id: taken.id, extra: 1 }, 400, 'VALIDATION_FAILED')
  })

  t.test('a newcomer does not overtake the queue', async (t) => {
    await reset()
    const waiting = await seedSession(svc)
    t.match((await post('to-human', { session_id: waiting.id })).json(), { is_waiting: true })
    await queueSettled(svc)
    await seedAgents(svc, [{ user_id: 'free' }])
    const newcomer = await seedSession(svc)
    t.match((await post('to-human', { session_id: newcomer.id })).json(), { is_waiting: true, queue_position: 2 })
    const urgent = await seedSession(svc)
    t.match(
      (await post('to-human', { session_id: urgent.id, priority: 'urgent' })).json(),
      { new_agent_id: 'free', is_waiting: false },
      'nobody waits at urgent: served at once',
    )
    await queueSettled(svc)
    const held = await svc.db.selectFrom('sessions').select('id').where('agent_id', '=', 'free').execute()
    t.equal(held.length, 3, 'the kick after queueing served the two waiting ones too')
  })

  t.test('to-agent: online and under capacity, or 409 naming why; 400 outside the workspace', async (t) => {
    await reset()
    await seedAgents(svc, [
      { user_id: 'on', max_concurrent: 2 },
      { user_id: 'off', status: 'offline' },
      { user_id: 'full', max_concurrent: 1 },
      { user_id: 'globex-agent', scope: GLOBEX },
    ])
    await seedSession(svc, { agent_id: 'full', status: 'active' })
    const s = await seedSession(svc)
    const expect = async (target: string, status: number, code: string) => {
      const res = await post('to-agent', { session_id: s.id, target_agent_id: target })
      t.equal(res.statusCode, status, `${target}: ${status}`)
      t.equal(res.json().code, code)
    }
    await expect('off', 409, 'CONVERSATIONS_AGENT_OFFLINE')
    await expect('full', 409, 'CONVERSATIONS_AGENT_AT_CAPACITY')
    // a person the body names: bad input, the same for an unknown id and another tenant's (references.routes.test.ts)
    await expect('ghost', 400, 'CONVERSATIONS_UNKNOWN_AGENT')
    await expect('globex-agent', 400, 'CONVERSATIONS_UNKNOWN_AGENT')
    const missing = await post('to-agent', { session_id: 'nope', target_agent_id: 'on' })
    t.equal(missing.statusCode, 404)

    // a waiting session handed to a named agent leaves the queue
    t.match((await post('to-human', { session_id: s.id })).json(), { is_waiting: false, new_agent_id: 'on' })
    const w = await seedSession(svc)
    await svc.db.updateTable('agents').set({ status: 'away' }).where('user_id', '=', 'on').execute()
    t.match((await post('to-human', { session_id: w.id })).json(), { is_waiting: true })
    await queueSettled(svc) // the kick after queueing found nobody; the queue is left alone from here
    await svc.db.updateTable('agents').set({ status: 'online' }).where('user_id', '=', 'on').execute()
    const res = await post('to-agent', { session_id: w.id, target_agent_id: 'on', reason: 'knows the case' })
    t.equal(res.statusCode, 200)
    t.match(res.json(), { new_agent_id: 'on', is_waiting: false, transferred_at: String })
    t.match((await get('waiting')).json(), { count: 0 })
    t.match(await svc.db.selectFrom('waiting').selectAll().where('session_id', '=', w.id).executeTakeFirst(), {
      status: 'transferred',
      assigned_to: 'on',
    })
    const same = await post('to-agent', { session_id: w.id, target_agent_id: 'on' })
    t.match(same.json(), { new_agent_id: 'on', summary: 'The session is already assigned to the target agent.' })
    t.match((await get(`history/${w.id}`)).json(), {
      count: 1,
      items: [{ kind: 'to_agent', reason: 'knows the case' }],
    })
    const atCap = await post('to-agent', { session_id: (await seedSession(svc)).id, target_agent_id: 'on' })
    t.equal(atCap.json().code, 'CONVERSATIONS_AGENT_AT_CAPACITY', 'two of two')
  })

  t.test('cancel is idempotent', async (t) => {
    await reset()
    const s = await seedSession(svc)
    await post('to-human', { session_id: s.id })
    const first = await post('cancel', { session_id: s.id, reason: 'customer left' })
    t.equal(first.statusCode, 200)
    t.same(first.json(), { session_id: s.id, cancelled: true })
    t.same((await post('cancel', { session_id: s.id })).json(), { session_id: s.id, cancelled: false })
    t.match(await svc.db.selectFrom('sessions').selectAll().where('id', '=', s.id).executeTakeFirst(), {
      status: 'active',
      agent_id: null,
    })
    t.match(await svc.db.selectFrom('waiting').selectAll().where('session_id', '=', s.id).executeTakeFirst(), {
      status: 'cancelled',
      cancel_reason: 'customer left',
    })
    const messages = await messagesOf(svc, s.id)
    t.equal(messages.length, 2, 'one message for queueing, one for leaving; none for the repeat')
    t.match(messages[1], { content: 'You left the queue for a human agent (reason: customer left).' })
    t.equal((await post('cancel', { session_id: s.id }, h.other)).statusCode, 404)
    const events = await waitFor(async () => {
      const all = (await published(svc, 'conversations.queue.cancelled')).filter((e) => e.data.session_id === s.id)
      return all.length ? all : undefined
    })
    t.match(events, [{ data: { reason: 'customer left' } }])
    t.match((await post('to-human', { session_id: s.id })).json(), { is_waiting: true }, 'and may queue again')
  })

  t.test('history lists the workspace’s hand-overs, newest first; a foreign session is 404', async (t) => {
    const res = await get('history?limit=2')
    t.equal(res.statusCode, 200)
    const { count, items } = res.json()
    t.equal(count, 2)
    t.ok(items[0].transferred_at >= items[1].transferred_at)
    t.ok(items.every((i: { tenant_id: string }) => i.tenant_id === 'acme'))
    t.same((await get('history', h.other)).json(), { count: 0, items: [] })
    const foreign = await seedSession(svc, GLOBEX)
    t.equal((await get(`history/${foreign.id}`)).statusCode, 404)
    t.same((await get(`history/${foreign.id}`, h.other)).json(), { count: 0, items: [] })
  })

  t.test('a session’s history: its latest `limit` hand-overs, oldest first; limit is checked', async (t) => {
    await reset()
    await seedAgents(svc, [{ user_id: 'h1' }, { user_id: 'h2' }])
    const s = await seedSession(svc)
    const targets = ['h1', 'h2', 'h1', 'h2', 'h1']
    for (const to of targets) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/omni/sessions/${s.id}/transfer`,
        headers: h.agent,
        payload: { to_agent_id: to },
      })
      t.equal(res.statusCode, 200)
    }
    const all = (await get(`history/${s.id}`)).json()
    t.equal(all.count, 5, 'up to 50 by default')
    t.same(
      all.items.map((i: { to_agent_id: string }) => i.to_agent_id),
      targets,
    )
    const two = await get(`history/${s.id}?limit=2`)
    t.equal(two.statusCode, 200)
    t.same(
      two.json().items.map((i: { id: string }) => i.id),
      all.items.slice(3).map((i: { id: string }) => i.id),
      'the latest two, oldest first',
    )
    for (const limit of ['0', '201', 'abc']) {
      const res = await get(`history/${s.id}?limit=${limit}`)
      t.equal(res.statusCode, 400, `limit=${limit}`)
      t.match(res.json().message, /^querystring\.limit/)
    }
  })

  t.test('check-auto', async (t) => {
    const s = await seedSession(svc)
    const res = await post('check-auto', {
      session_id: s.id,
      messages: [
        { content: 'hi', sender: 'customer' },
        { content: 'I want a human', sender: 'customer' },
      ],
    })
    t.equal(res.statusCode, 200)
    t.match(res.json(), { session_id: s.id, should_transfer: true, reason: /human/ })
    const quiet = await post('check-auto', { session_id: s.id, messages: [{ content: 'thanks', sender: 'customer' }] })
    t.match(quiet.json(), { should_transfer: false })
    t.equal((await post('check-auto', { session_id: s.id })).statusCode, 400, 'messages are required')
    t.equal((await post('check-auto', { session_id: 'nope', messages: [] })).statusCode, 404)
  })

  t.test('process-queue answers in the caller’s scope', async (t) => {
    await reset()
    const res = await post('process-queue')
    t.same(res.json(), { assigned: 0, remaining: 0 })
    t.equal(ACME.tenant_id, 'acme')
    t.equal((await post('process-queue', {})).statusCode, 200, 'an empty body')
    const junk = await post('process-queue', { anything: 1 })
    t.equal(junk.statusCode, 400, 'a body with something in it')
    t.equal(junk.json().code, 'VALIDATION_FAILED')
  })
})
