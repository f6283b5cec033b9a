import { newEnvelope } from '@switchboard/events'
import { fromJson } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { queueSettled } from '../../src/commands/queue.commands.ts'
import type { ConversationsService } from '../../src/context.ts'
import { conversationsApp } from '../helpers/app.ts'
import { ACME, agentFacts, IdentityEvents, publishIdentity, QUIET_QUEUE, seedWaiting } from '../helpers/queue.ts'

const agentRow = (svc: ConversationsService, agentId: string) =>
  svc.db.selectFrom('agents').selectAll().where('agent_id', '=', agentId).executeTakeFirst()

inEachStorageMode(t, 'agents projection', async (t, mode) => {
  const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })

  t.test('identity.agent.upserted makes a row in the envelope’s workspace', async (t) => {
    const sent = await publishIdentity(
      svc,
      IdentityEvents.agentUpserted,
      agentFacts({ agent_id: 'ag-1', user_id: 'u-1', skills: ['billing', 'voice'], max_concurrent: 3, rating: 4.5 }),
    )
    const row = await waitFor(() => agentRow(svc, 'ag-1'))
    t.match(row, {
      user_id: 'u-1',
      tenant_id: 'acme',
      workspace_id: 'support',
      name: 'Agent u-1',
      max_concurrent: 3,
      status: 'offline',
      rating: 4.5,
      updated_at: sent.occurred_at,
    })
    t.same(fromJson(row.skills, []), ['billing', 'voice'])
  })

  t.test('identity.agent.status_changed applies; an older event never overwrites a newer one', async (t) => {
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-2', user_id: 'u-2' }))
    await waitFor(() => agentRow(svc, 'ag-2'))
    const online = await publishIdentity(svc, IdentityEvents.agentStatusChanged, {
      agent_id: 'ag-2',
      user_id: 'u-2',
      status: 'online',
      previous: 'offline',
    })
    await waitFor(async () => (await agentRow(svc, 'ag-2'))?.status === 'online')
    // a late upsert from before the status change (a retry, a replay from an earlier point)
    const late = newEnvelope({
      type: IdentityEvents.agentUpserted.type,
      ...ACME,
      actor: { user_id: 'admin-1', kind: 'admin' },
      data: agentFacts({ agent_id: 'ag-2', user_id: 'u-2', status: 'offline', name: 'Stale' }),
    })
    late.occurred_at = new Date(Date.parse(online.occurred_at) - 60_000).toISOString()
    await svc.bus.publish(late.type, late)
    // the same status event delivered again (a replay): the inbox applies it once
    await svc.bus.publish(online.type, online, { msgId: `${online.id}-replayed` })
    // one consumer handles the subject in order: once a later marker is applied, the two above were handled
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-m', user_id: 'm' }))
    await waitFor(() => agentRow(svc, 'ag-m'))
    t.match(await agentRow(svc, 'ag-2'), { status: 'online', name: 'Agent u-2', updated_at: online.occurred_at })
  })

  t.test('an agent coming online kicks the queue of its workspace', async (t) => {
    const scope = { tenant_id: 'acme', workspace_id: 'kick' }
    const [waiting] = await seedWaiting(svc, [{ scope }])
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-3', user_id: 'u-3' }), scope)
    await waitFor(() => agentRow(svc, 'ag-3'))
    await queueSettled(svc)
    const before = await svc.db
      .selectFrom('sessions')
      .select('agent_id')
      .where('id', '=', waiting!.id)
      .executeTakeFirst()
    t.equal(before?.agent_id, null, 'offline: nothing routed')
    const change = { agent_id: 'ag-3', user_id: 'u-3', status: 'online', previous: 'offline' }
    await publishIdentity(svc, IdentityEvents.agentStatusChanged, change, scope)
    const session = await waitFor(async () => {
      const s = await svc.db.selectFrom('sessions').selectAll().where('id', '=', waiting!.id).executeTakeFirst()
      return s?.agent_id ? s : undefined
    })
    t.match(session, { agent_id: 'u-3', status: 'transferred' }, 'assigned without anyone calling process-queue')
    await queueSettled(svc)
  })

  t.test(
    'a status change before its agent’s upsert waits for it, even while the user has an older agent row',
    async (t) => {
      const identity = (data: ReturnType<typeof agentFacts>) =>
        newEnvelope({
          type: IdentityEvents.agentUpserted.type,
          ...ACME,
          actor: { user_id: 'admin-1', kind: 'admin' },
          data,
        })
      const first = identity(agentFacts({ agent_id: 'ag-6a', user_id: 'u-6' }))
      first.occurred_at = new Date(Date.now() - 60_000).toISOString()
      await svc.bus.publish(first.type, first)
      await waitFor(() => agentRow(svc, 'ag-6a'))
      // the user is made an agent again (ag-6b): its status change overtakes its upsert (replicas share the consumer)
      const upsert = identity(agentFacts({ agent_id: 'ag-6b', user_id: 'u-6', status: 'offline' }))
      const online = await publishIdentity(svc, IdentityEvents.agentStatusChanged, {
        agent_id: 'ag-6b',
        user_id: 'u-6',
        status: 'online',
        previous: 'offline',
      })
      upsert.occurred_at = new Date(Date.parse(online.occurred_at) - 1000).toISOString()
      await svc.bus.publish(upsert.type, upsert)
      const row = await waitFor(async () => {
        const r = await agentRow(svc, 'ag-6b')
        return r?.status === 'online' ? r : undefined
      })
      t.match(row, { user_id: 'u-6', status: 'online', updated_at: online.occurred_at }, 'retried after the upsert')
      t.equal(await agentRow(svc, 'ag-6a'), undefined, 'the older row is gone')
      await queueSettled(svc)
    },
  )

  t.test('a user made an agent again under a new id replaces the old row', async (t) => {
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-old', user_id: 'u-5' }))
    await waitFor(() => agentRow(svc, 'ag-old'))
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-new', user_id: 'u-5' }))
    await waitFor(() => agentRow(svc, 'ag-new'))
    t.equal(await agentRow(svc, 'ag-old'), undefined)
    const other = { tenant_id: 'globex', workspace_id: 'support' }
    await publishIdentity(svc, IdentityEvents.agentUpserted, agentFacts({ agent_id: 'ag-g', user_id: 'u-5' }), other)
    t.match(await waitFor(() => agentRow(svc, 'ag-g')), other, 'the same user, another workspace: its own row')
    t.ok(await agentRow(svc, 'ag-new'))
  })
})
