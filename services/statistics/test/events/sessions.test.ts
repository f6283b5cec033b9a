// Every session event conversations emits (services/conversations/src/commands: sessions.commands.ts created/closed,
// messages.commands.ts reopened, assign-agent.ts assigned/transferred, agent-sessions.commands.ts released), each in
// its own shape, is projected, and counted as the spec's definitions say: every session in total_sessions and
// today_sessions, only those with status active in active_sessions; DailyStats counts each session once.
import { ConversationEvents as C } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { CONVERSATIONS_PROJECTION } from '../../src/consumers/conversations.consumer.ts'
import { aggregatesDrift } from '../../src/db/aggregates-check.ts'
import { findDaily } from '../../src/db/daily-stats.repository.ts'
import { ACME, applied, as, publish, statisticsApp, supervisor } from '../helpers/app.ts'
import { at, D0, session } from '../helpers/world.ts'

inEachStorageMode(t, 'session events, each by its own contract', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const headers = await as(supervisor())
  const dashboard = async () => (await app.inject({ method: 'GET', url: '/api/statistics/dashboard', headers })).json()
  const statuses = async (ids: string[]) =>
    Object.fromEntries(
      (
        await svc.db.selectFrom('sessions').select(['session_id', 'status']).where('session_id', 'in', ids).execute()
      ).map((r) => [r.session_id, r.status]),
    )
  // each event a moment after the one before: newest wins on occurred_at, as conversations' commits order them
  let tick = Date.now() - 60_000
  const send = async (def: Parameters<typeof publish>[1], data: unknown) => {
    tick += 1000
    const envelope = await publish(svc, def, data, ACME, new Date(tick).toISOString())
    await applied(svc, CONVERSATIONS_PROJECTION, envelope.id)
  }
  const facts = (id: string, status: string, agent_id: string | null) => ({
    ...session(id, status, at(0, '00:10:00')),
    agent_id,
  })

  await t.test('a transferred session is projected with the status the event gives it', async (t) => {
    // handed from one agent to another
    await send(C.sessionCreated, facts('st-1', 'active', null))
    await send(C.sessionAssigned, { session: facts('st-1', 'active', 'u-a1'), previous_agent_id: null })
    await send(C.sessionTransferred, {
      session: facts('st-1', 'transferred', 'u-a2'),
      from_agent_id: 'u-a1',
      to_agent_id: 'u-a2',
      reason: 'billing question',
      transfer_id: 'tr-1',
    })
    // taken from the waiting queue (no agent before), then closed
    await send(C.sessionCreated, facts('st-2', 'waiting_human', null))
    await send(C.sessionTransferred, {
      session: facts('st-2', 'transferred', 'u-a1'),
      from_agent_id: null,
      to_agent_id: 'u-a1',
      reason: 'customer asked for a human',
      transfer_id: 'tr-2',
    })
    await send(C.sessionTransferred, {
      session: facts('st-3', 'transferred', 'u-a2'),
      from_agent_id: null,
      to_agent_id: 'u-a2',
      reason: 'the first event seen of this session',
      transfer_id: 'tr-3',
    })
    await send(C.sessionClosed, facts('st-3', 'closed', 'u-a2'))

    t.same(await statuses(['st-1', 'st-2', 'st-3']), { 'st-1': 'transferred', 'st-2': 'transferred', 'st-3': 'closed' })
    t.match(await dashboard(), { total_sessions: 3, today_sessions: 3, active_sessions: 0 })
    t.equal((await findDaily(svc.db, D0))?.total_sessions, 3, 'DailyStats: each session once')
    t.same(await aggregatesDrift(svc.db, svc.dialect), [], 'aggregates equal the rows summed')
  })

  await t.test('a released session is active again, with no agent', async (t) => {
    await send(C.sessionCreated, facts('sr-1', 'active', null))
    await send(C.sessionAssigned, { session: facts('sr-1', 'active', 'u-a1'), previous_agent_id: null })
    await send(C.sessionReleased, { session: facts('sr-1', 'active', null), previous_agent_id: 'u-a1' })
    // released from a transfer: transferred → active
    await send(C.sessionCreated, facts('sr-2', 'waiting_human', null))
    await send(C.sessionTransferred, {
      session: facts('sr-2', 'transferred', 'u-a2'),
      from_agent_id: null,
      to_agent_id: 'u-a2',
      reason: 'queue',
      transfer_id: 'tr-4',
    })
    await send(C.sessionReleased, { session: facts('sr-2', 'active', null), previous_agent_id: 'u-a2' })

    t.same(await statuses(['sr-1', 'sr-2']), { 'sr-1': 'active', 'sr-2': 'active' })
    t.match(await dashboard(), { total_sessions: 5, today_sessions: 5, active_sessions: 2 })
    t.equal((await findDaily(svc.db, D0))?.total_sessions, 5, 'DailyStats: each session once')
    t.same(await aggregatesDrift(svc.db, svc.dialect), [], 'aggregates equal the rows summed')
  })
})
