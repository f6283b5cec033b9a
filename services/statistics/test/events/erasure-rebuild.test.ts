// A tenant's erasure in statistics: its agents' names and departments emptied, rows and totals kept — and kept empty
// by `switchboard stats rebuild`, which replays the identity stream (agent events first, then the erasure) through
// the identity projection. Both storage modes.
import { IdentityEvents, IdentityTenantErasureEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { rebuild } from '../../src/build.ts'
import { IDENTITY_PROJECTION } from '../../src/consumers/identity.consumer.ts'
import { ACME, applied, GLOBEX, publish, statisticsApp } from '../helpers/app.ts'

const agent = (agent_id: string, name: string, department: string, status = 'online') => ({
  agent_id,
  user_id: `u-${agent_id}`,
  name,
  department,
  skills: [],
  max_concurrent: 5,
  status,
  rating: 4,
  avg_response_time: 30,
})

inEachStorageMode(t, 'tenant erasure and the identity projection', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const agents = async () =>
    (
      await svc.db
        .selectFrom('agents')
        .select(['agent_id', 'tenant_id', 'name', 'department', 'status'])
        .orderBy('agent_id')
        .execute()
    ).map((r) => ({ ...r }))
  const counts = () => svc.db.selectFrom('user_role_counts').selectAll().orderBy('role').execute()

  await publish(svc, IdentityEvents.userRegistered, {
    user_id: 'u-e1',
    username: 'ann',
    role: 'agent',
    name: 'Ann Erased',
  })
  await publish(svc, IdentityEvents.agentUpserted, agent('e1', 'Ann Erased', 'Sales'))
  await publish(svc, IdentityEvents.agentUpserted, agent('e2', 'Bob Erased', 'Support', 'busy'))
  const kept = await publish(svc, IdentityEvents.agentUpserted, agent('k1', 'Zed Kept', 'Ops'), GLOBEX)
  await applied(svc, IDENTITY_PROJECTION, kept.id)
  const before = await counts()

  const erasure = await publish(
    svc,
    IdentityTenantErasureEvents.requested,
    { tenant_erasure_id: 'te-1', tenant_id: ACME.tenant_id, user_ids: ['u-e1', 'u-e2'], identifiers: ['Ann Erased'] },
    { tenant_id: ACME.tenant_id, workspace_id: '' },
  )
  await applied(svc, IDENTITY_PROJECTION, erasure.id)

  const erased = [
    { agent_id: 'e1', tenant_id: 'acme', name: '', department: '', status: 'online' },
    { agent_id: 'e2', tenant_id: 'acme', name: '', department: '', status: 'busy' },
    { agent_id: 'k1', tenant_id: 'globex', name: 'Zed Kept', department: 'Ops', status: 'online' },
  ]
  t.same(await agents(), erased, "the tenant's agents lose name and department; rows, statuses, another tenant kept")
  t.same(await counts(), before, 'role totals unchanged')

  t.test('an older agent event taken after the erasure changes nothing', async (t) => {
    const late = await publish(
      svc,
      IdentityEvents.agentUpserted,
      agent('e1', 'Ann Erased', 'Sales'),
      ACME,
      new Date(Date.parse(erasure.occurred_at) - 60_000).toISOString(),
    )
    await applied(svc, IDENTITY_PROJECTION, late.id)
    t.same(await agents(), erased)
  })

  t.test('a rebuild of the identity projection replays the erasure after the agents: names stay empty', async (t) => {
    const [report] = await rebuild(app, ['identity'])
    t.same(report?.failed, [], 'nothing failed')
    t.ok((report?.events ?? 0) >= 6, `${report?.events} events replayed`)
    t.same(await agents(), erased, 'after the rebuild: names and departments still empty, the other tenant kept')
    t.same(await counts(), before, 'role totals as before')
  })

  t.test('a second delivery of the erasure is skipped (inbox)', async (t) => {
    await svc.bus.publish(erasure.type, erasure, { msgId: `${erasure.id}-again` })
    const marker = await publish(svc, IdentityEvents.agentUpserted, agent('k2', 'Yan Kept', 'Ops'), GLOBEX)
    await applied(svc, IDENTITY_PROJECTION, marker.id)
    t.same(
      (await agents()).filter((a) => a.agent_id !== 'k2'),
      erased,
    )
  })
})
