import { ConversationEvents, type SessionFacts } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { AGENT_LOAD_CONSUMER } from '../../src/consumers/agent-load.consumer.ts'
import { createCustomer, directoryFixture } from '../helpers/directory.ts'

// An agent's current_load on identity's agent record, from conversations' session events.
const conversations = { user_id: 'conversations', kind: 'service' }
const acme = { tenant_id: 'acme', workspace_id: 'support' }

const facts = (session_id: string, agent_id: string | null, status: SessionFacts['status']): SessionFacts => ({
  session_id,
  status,
  channel: 'web',
  subject: '',
  customer_id: 'cust-1',
  visitor_id: null,
  agent_id,
  ticket_id: null,
  started_at: '2026-11-27T10:00:00.000Z',
  last_message_at: null,
  ended_at: status === 'closed' ? '2026-11-27T11:00:00.000Z' : null,
})

inEachStorageMode(t, 'current_load from conversations events', async (t, mode) => {
  const { app, svc, who, req } = await directoryFixture(t, mode)
  const carol = await createCustomer(app, who.acmeAdmin, { name: 'Carol', email: 'carol@acme.test' })
  const made = await req('POST', '/api/agents', who.acmeAdmin, { user_id: carol.user_id })
  t.equal(made.statusCode, 201, made.body)
  t.equal(made.json().current_load, 0, 'a new agent handles nothing')
  const agentId = made.json().id as string
  const u = carol.user_id as string

  let clock = Date.parse('2026-11-27T10:00:00.000Z')
  const tick = () => {
    clock += 1000
    return new Date(clock).toISOString()
  }
  const publish = async (type: string, data: object, scope = acme, at = tick()) => {
    const e = { ...newEnvelope({ type, ...scope, actor: conversations, data }), occurred_at: at }
    await svc.bus.publish(e.type, e)
    return e
  }
  const load = async () => (await req('GET', `/api/agents/${agentId}`, who.acmeAdmin)).json().current_load as number
  const until = (want: number) => waitFor(async () => ((await load()) === want ? want : undefined), 5000)

  await t.test('moved by creation with an agent, assignment, transfer, release and close', async (t) => {
    await publish(ConversationEvents.sessionCreated.type, facts('s1', u, 'active'))
    t.equal(await until(1), 1, 'opened by the agent')
    await publish(ConversationEvents.sessionAssigned.type, {
      session: facts('s2', u, 'active'),
      previous_agent_id: null,
    })
    t.equal(await until(2), 2, 'assigned')
    await publish(ConversationEvents.sessionTransferred.type, {
      session: facts('s3', u, 'transferred'),
      from_agent_id: 'someone',
      to_agent_id: u,
      reason: '',
      transfer_id: 't3',
    })
    t.equal(await until(3), 3, 'transferred to the agent')
    await publish(ConversationEvents.sessionTransferred.type, {
      session: facts('s3', 'someone', 'transferred'),
      from_agent_id: u,
      to_agent_id: 'someone',
      reason: '',
      transfer_id: 't4',
    })
    t.equal(await until(2), 2, 'transferred away')
    await publish(ConversationEvents.sessionReleased.type, {
      session: facts('s2', null, 'active'),
      previous_agent_id: u,
    })
    t.equal(await until(1), 1, 'released')
    await publish(ConversationEvents.sessionClosed.type, facts('s1', u, 'closed'))
    t.equal(await until(0), 0, 'closed')
    await publish(ConversationEvents.sessionReopened.type, facts('s1', null, 'active'))
    await publish(ConversationEvents.sessionAssigned.type, {
      session: facts('s9', u, 'active'),
      previous_agent_id: null,
    })
    t.equal(await until(1), 1, 'a reopened session has no agent')
  })

  await t.test('an older or repeated event changes nothing; another scope counts for its own agent only', async (t) => {
    const late = new Date(clock - 60_000).toISOString()
    const assigned = await publish(ConversationEvents.sessionAssigned.type, {
      session: facts('s10', u, 'active'),
      previous_agent_id: null,
    })
    t.equal(await until(2), 2)
    await svc.bus.publish(assigned.type, assigned)
    // an event older than the newest for s9 (its assignment): it must not undo it
    await publish(ConversationEvents.sessionClosed.type, facts('s9', u, 'closed'), acme, late)
    // the same user handling a session in another tenant is not this agent's load
    await publish(
      ConversationEvents.sessionAssigned.type,
      { session: facts('g1', u, 'active'), previous_agent_id: null },
      { tenant_id: 'globex', workspace_id: 'support' },
    )
    // a marker event after all of the above: once it shows, they were all handled
    await publish(ConversationEvents.sessionAssigned.type, {
      session: facts('s11', u, 'active'),
      previous_agent_id: null,
    })
    t.equal(await until(3), 3, 's9, s10 and s11: nothing doubled, nothing undone, nothing foreign')
    const list = await req('GET', '/api/agents', who.acmeAdmin)
    t.equal(list.json().data.find((a: { id: string }) => a.id === agentId).current_load, 3, 'on the list too')
  })

  await t.test('the session whole or under `session`; anything else is dead-lettered at once', async (t) => {
    // a session event without the session's facts (whole or under `session`): its contract refuses it
    const partial = await publish(ConversationEvents.sessionCreated.type, { session_id: 's20' })
    const bare = await publish(ConversationEvents.sessionAssigned.type, facts('s21', u, 'active'))
    const nothing = await publish(ConversationEvents.sessionClosed.type, {})
    await publish(ConversationEvents.sessionAssigned.type, {
      session: facts('s22', u, 'active'),
      previous_agent_id: null,
    })
    t.equal(await until(4), 4, 'the next event applied all the same')
    const dead = await waitFor(async () => {
      const letters = await svc.bus.deadLetters({ consumer: AGENT_LOAD_CONSUMER })
      return letters.length >= 3 ? letters : undefined
    }, 5000)
    t.same(
      dead.map((d) => d.envelope.id).sort(),
      [partial.id, bare.id, nothing.id].sort(),
      'each of them dead-lettered',
    )
    t.ok(
      dead.every((d) => d.deliveries === 1 && /does not match its contract/.test(d.error)),
      'on its first delivery, the contract named',
    )
  })
})
