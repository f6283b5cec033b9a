import { newId, nowIso, systemCaller } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { kickQueue, processQueue, queueSettled } from '../../src/commands/queue.commands.ts'
import { queueInfo } from '../../src/commands/queue-info.ts'
import { toHuman } from '../../src/commands/transfer.commands.ts'
import type { ConversationsService } from '../../src/context.ts'
import { QUEUE_WORKER } from '../../src/workers/queue.worker.ts'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { ACME, published, QUIET_QUEUE, seedAgents, seedSession, seedWaiting } from '../helpers/queue.ts'

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

const sessionOf = (svc: ConversationsService, id: string) =>
  svc.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const waitingOf = (svc: ConversationsService, sessionId: string) =>
  svc.db.selectFrom('waiting').selectAll().where('session_id', '=', sessionId).executeTakeFirstOrThrow()

/** Frees every seat: the sessions agents hold are closed (as the sessions API would). */
const closeAll = (svc: ConversationsService) =>
  svc.db.updateTable('sessions').set({ status: 'closed' }).where('agent_id', 'is not', null).execute()

inEachStorageMode(t, 'the waiting queue', async (t, mode) => {
  t.test('served by priority, then age; one record per agent seat', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const [oldNormal, urgent, high, newNormal, low] = await seedWaiting(svc, [
      { priority: 'normal', queued_at: minutesAgo(30) },
      { priority: 'urgent', queued_at: minutesAgo(1) },
      { priority: 'high', queued_at: minutesAgo(10) },
      { priority: 'normal', queued_at: minutesAgo(5) },
      { priority: 'low', queued_at: minutesAgo(60) },
    ])
    t.same(await processQueue(svc, ACME), { assigned: 0, remaining: 5 }, 'no agent: nothing moves')
    await seedAgents(svc, [{ user_id: 'solo', max_concurrent: 1 }])
    const order: string[] = []
    for (let i = 0; i < 5; i++) {
      const pass = await processQueue(svc, ACME)
      t.same(pass, { assigned: 1, remaining: 4 - i }, `pass ${i + 1}: the one seat is filled`)
      const taken = await svc.db.selectFrom('sessions').select('id').where('agent_id', '=', 'solo').execute()
      order.push(...taken.map((r) => r.id).filter((id) => !order.includes(id)))
      await closeAll(svc)
    }
    t.same(order, [urgent!.id, high!.id, oldNormal!.id, newNormal!.id, low!.id])
  })

  t.test('an assignment from the queue: session, record, transfer, message, events', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const [s] = await seedWaiting(svc, [{ priority: 'high', queued_at: minutesAgo(2) }])
    await seedAgents(svc, [{ user_id: 'ann' }])
    t.same(await processQueue(svc, ACME), { assigned: 1, remaining: 0 })
    t.match(await sessionOf(svc, s!.id), { status: 'transferred', agent_id: 'ann', message_count: 1 })
    t.match(await waitingOf(svc, s!.id), { status: 'transferred', assigned_to: 'ann', assigned_at: String })
    const transfers = await svc.db.selectFrom('transfers').selectAll().where('session_id', '=', s!.id).execute()
    t.match(transfers, [{ kind: 'queue', to_agent_id: 'ann', from_agent_id: null, actor_id: 'system' }])
    const messages = await svc.db.selectFrom('messages').selectAll().where('session_id', '=', s!.id).execute()
    t.match(messages, [{ sender: 'system', content: /handed over to Agent ann/ }])
    const assigned = await waitFor(async () => {
      const events = await published(svc, 'conversations.queue.assigned')
      return events.length > 0 ? events : undefined
    })
    t.match(assigned[0], {
      tenant_id: 'acme',
      workspace_id: 'support',
      data: { session_id: s!.id, agent_id: 'ann', priority: 'high', waited_seconds: Number },
    })
    t.ok((assigned[0]!.data.waited_seconds as number) >= 100, 'waited about two minutes')
  })

  t.test('no agent is ever given more than its capacity; scopes stay apart', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: { ...QUIET_QUEUE, QUEUE_BATCH: '1000' } })
    const other = { tenant_id: 'globex', workspace_id: 'support' }
    await seedWaiting(
      svc,
      Array.from({ length: 12 }, () => ({})),
    )
    const [globex] = await seedWaiting(svc, [{ scope: other }])
    // g is online with seats to spare, but in another tenant: acme's sessions never reach it, nor globex's acme's
    await seedAgents(svc, [
      { user_id: 'a', max_concurrent: 2 },
      { user_id: 'b', max_concurrent: 3 },
      { user_id: 'c', max_concurrent: 3, status: 'busy' },
      { user_id: 'g', max_concurrent: 9, scope: other },
    ])
    const loadsOf = async () =>
      (
        await svc.db
          .selectFrom('sessions')
          .select(['agent_id', 'tenant_id', (eb) => eb.fn.countAll<number>().as('n')])
          .where('agent_id', 'is not', null)
          .groupBy(['agent_id', 'tenant_id'])
          .orderBy('agent_id')
          .execute()
      ).map((r) => [r.agent_id, r.tenant_id, Number(r.n)])
    t.same(await processQueue(svc, ACME), { assigned: 5, remaining: 7 })
    t.same(await loadsOf(), [
      ['a', 'acme', 2],
      ['b', 'acme', 3],
    ])
    t.match(await sessionOf(svc, globex!.id), { agent_id: null }, "acme's pass leaves globex's queue alone")
    t.same(await processQueue(svc), { assigned: 1, remaining: 7 }, 'an unscoped pass: every scope, each its own')
    t.same(await loadsOf(), [
      ['a', 'acme', 2],
      ['b', 'acme', 3],
      ['g', 'globex', 1],
    ])
  })

  t.test('shifts limit routing when the workspace schedules them', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    await seedAgents(svc, [
      { user_id: 'star', rating: 9 },
      { user_id: 'rookie', rating: 1 },
    ])
    const shift = (agent: string, from: number, to: number, status = 'scheduled') =>
      svc.db
        .insertInto('shifts')
        .values({
          id: newId(),
          ...ACME,
          agent_id: agent,
          shift_type: 'morning',
          start_time: minutesAgo(from),
          end_time: minutesAgo(to),
          status,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute()
    const routeOne = async () => {
      const [s] = await seedWaiting(svc, [{}])
      await processQueue(svc, ACME)
      return (await sessionOf(svc, s!.id)).agent_id
    }
    await shift('star', 3 * 24 * 60 + 60, 3 * 24 * 60)
    t.equal(await routeOne(), 'star', 'only an old shift: no restriction, the best agent')
    await closeAll(svc)
    await shift('rookie', 60, -60)
    t.equal(await routeOne(), 'rookie', 'the workspace has shifts now: only the agent on shift')
    await closeAll(svc)
    await svc.db.updateTable('shifts').set({ status: 'cancelled' }).where('agent_id', '=', 'rookie').execute()
    await shift('star', -120, -240)
    t.equal(await routeOne(), null, 'a shift later today, nobody on shift now: the session waits')
    await shift('star', 10, -10, 'active')
    t.equal((await processQueue(svc, ACME)).assigned, 1, 'the shift starts: served')
  })

  t.test('position and estimated wait', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const [first, second] = await seedWaiting(svc, [{ queued_at: minutesAgo(3) }, { queued_at: minutesAgo(2) }])
    const [urgent] = await seedWaiting(svc, [{ priority: 'urgent', queued_at: minutesAgo(1) }])
    t.same(await queueInfo(svc.db, await sessionOf(svc, urgent!.id)), {
      position: 1,
      estimated_wait_seconds: null,
    })
    t.same(
      await queueInfo(svc.db, await sessionOf(svc, second!.id)),
      {
        position: 3,
        estimated_wait_seconds: null,
      },
      'no recent assignment: no estimate',
    )
    // six hand-overs to a human in the last hour (and one before it, not counted): one every ten minutes
    const old = await seedSession(svc, { status: 'closed' })
    await svc.db
      .insertInto('transfers')
      .values(
        [90, 50, 40, 30, 20, 10, 5].map((m, i) => ({
          id: newId(),
          session_id: old.id,
          ...ACME,
          kind: i % 2 ? 'queue' : 'to_human',
          from_agent_id: null,
          to_agent_id: 'x',
          reason: '',
          notes: '',
          summary: '',
          actor_id: 'system',
          transferred_at: minutesAgo(m),
        })),
      )
      .execute()
    const info = await queueInfo(svc.db, await sessionOf(svc, first!.id))
    t.equal(info?.position, 2)
    t.equal(info?.estimated_wait_seconds, 1200, '2 × 600 s')
    t.equal(await queueInfo(svc.db, old), undefined, 'a session not waiting has none')
  })

  t.test('to-human queues with position and estimate in the event; a kick serves it', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const s = await seedSession(svc)
    const caller = systemCaller(ACME)
    const { result } = await toHuman(svc, caller, { session_id: s.id, reason: 'refund', target_skills: ['Billing'] })
    t.match(result, { is_waiting: true, queue_position: 1, estimated_wait_seconds: null, new_agent_id: null })
    await queueSettled(svc)
    const waiting = await waitFor(async () => {
      const events = await published(svc, 'conversations.queue.waiting')
      return events.length > 0 ? events : undefined
    })
    t.match(waiting[0]!.data, {
      session_id: s.id,
      reason: 'refund',
      target_skills: ['Billing'],
      position: 1,
      estimated_wait_seconds: null,
    })
    await seedAgents(svc, [{ user_id: 'late' }])
    kickQueue(svc, ACME)
    await queueSettled(svc)
    t.match(await sessionOf(svc, s.id), { agent_id: 'late', status: 'transferred' })
  })

  t.test('the queue moving tells those still waiting their new place', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const [first, second, third] = await seedWaiting(svc, [
      { priority: 'normal', queued_at: minutesAgo(3) },
      { priority: 'normal', queued_at: minutesAgo(2) },
      { priority: 'normal', queued_at: minutesAgo(1) },
    ])
    await seedAgents(svc, [{ user_id: 'solo', max_concurrent: 1 }])
    t.same(await processQueue(svc, ACME), { assigned: 1, remaining: 2 }, 'the first is served')
    const moved = await waitFor(async () => {
      const events = await published(svc, 'conversations.queue.waiting')
      return events.length >= 2 ? events : undefined
    })
    t.same(
      moved.map((e) => [e.data.session_id, e.data.position]),
      [
        [second!.id, 1],
        [third!.id, 2],
      ],
      'each one still waiting, with its place now',
    )
    t.notOk(
      moved.some((e) => e.data.session_id === first!.id),
      'not the one served',
    )
  })

  t.test('the worker runs a pass over every scope', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const other = { tenant_id: 'globex', workspace_id: 'help' }
    await seedWaiting(svc, [{}, { scope: other }])
    await seedAgents(svc, [{ user_id: 'a' }, { user_id: 'g', scope: other }])
    t.equal(await svc.workers.runOnce(QUEUE_WORKER), 2)
    t.equal(await svc.workers.runOnce(QUEUE_WORKER), 0)
  })

  t.test('a kicked pass is the app’s background work, not the kicking request’s', async (t) => {
    const { app, svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const headers = await as(principal())
    await seedAgents(svc, [{ user_id: 'solo', max_concurrent: 1 }])
    const [held, other] = await seedWaiting(svc, [{ queued_at: minutesAgo(2) }, { queued_at: minutesAgo(1) }])
    await processQueue(svc, ACME)
    t.match(await sessionOf(svc, held!.id), { agent_id: 'solo' })
    const quiet = await seedSession(svc)
    const route = '/api/omni/sessions/:id/close'
    const counted = async () =>
      (await svc.metrics.dbQueries.get()).values.find((v) => v.labels.origin === route)?.value ?? 0
    const close = async (id: string) => {
      const before = await counted()
      const res = await app.inject({ method: 'POST', url: `/api/omni/sessions/${id}/close`, headers })
      t.equal(res.statusCode, 200)
      await queueSettled(svc)
      return (await counted()) - before
    }
    const alone = await close(quiet.id)
    const kicking = await close(held!.id)
    t.match(await sessionOf(svc, other!.id), { agent_id: 'solo' }, 'the freed seat was taken by the kicked pass')
    t.equal(kicking, alone, 'the pass’s queries are not counted as the route’s')
  })

  t.test('kicked passes end with the app: awaited on close, none after it', async (t) => {
    const { app, svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const failures: unknown[] = []
    const log = svc.log as unknown as Record<'warn' | 'error', (...args: unknown[]) => void>
    log.warn = (...args) => failures.push(args)
    log.error = (...args) => failures.push(args)
    await seedAgents(svc, [{ user_id: 'solo', max_concurrent: 1 }])
    await seedWaiting(
      svc,
      Array.from({ length: 30 }, () => ({})),
    )
    await processQueue(svc, ACME)
    const taken = await svc.db
      .selectFrom('sessions')
      .select('id')
      .where('agent_id', '=', 'solo')
      .executeTakeFirstOrThrow()
    const res = await app.inject({
      method: 'POST',
      url: `/api/omni/sessions/${taken.id}/close`,
      headers: await as(principal()),
    })
    t.equal(res.statusCode, 200, 'the close kicks a pass')
    await app.close()
    kickQueue(svc, ACME)
    await new Promise((r) => setTimeout(r, 100))
    t.same(failures, [], 'no pass ran against a closed database')
  })

  t.test('a session that moved on without its record is settled, not routed', async (t) => {
    const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })
    const [closed, taken] = await seedWaiting(svc, [{ queued_at: minutesAgo(2) }, { queued_at: minutesAgo(1) }])
    await svc.db.updateTable('sessions').set({ status: 'closed' }).where('id', '=', closed!.id).execute()
    await svc.db
      .updateTable('sessions')
      .set({ status: 'active', agent_id: 'someone' })
      .where('id', '=', taken!.id)
      .execute()
    await seedAgents(svc, [{ user_id: 'a' }])
    t.same(await processQueue(svc, ACME), { assigned: 0, remaining: 0 })
    t.match(await waitingOf(svc, closed!.id), { status: 'cancelled', cancel_reason: 'session_closed' })
    t.match(await waitingOf(svc, taken!.id), { status: 'transferred', assigned_to: 'someone' })
  })
})
