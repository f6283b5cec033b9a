import { ConversationEvents, IdentityEvents } from '@switchboard/contracts'
import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, silentLogger, storageFixture, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { tickets } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { ACME_SUPPORT, as, INTERNAL_SECRET, principal } from '../helpers/app.ts'
import { busFor, streamEvents } from '../helpers/bus.ts'
import { makeKnown, makeSessionsKnown, recordId, sessionEvent } from '../helpers/directory.ts'

const agent = principal()
const otherTenant = principal({ user_id: 'agent-9', tenant_id: 'globex', workspace_id: 'support' })
const identity = { user_id: 'identity', kind: 'service' }

inEachStorageMode(t, 'projections', async (t, mode) => {
  const store = await storageFixture(t, mode, 'tkpj')
  const bus = await busFor(store)
  t.teardown(() => bus.close())
  const customer = (name: string, occurred_at?: string) => {
    const e = newEnvelope({
      type: IdentityEvents.customerUpserted.type,
      ...ACME_SUPPORT,
      actor: identity,
      data: { customer_id: 'rec-pc-1', user_id: 'pc-1', name, source: 'web', tags: [] },
    })
    return occurred_at ? { ...e, occurred_at } : e
  }
  // Identity spoke before tickets ever ran: the directory is built by replaying the stream.
  await bus.ensureStreams([{ name: 'IDENTITY', subjects: ['identity.>'] }])
  const early = customer('First name')
  await bus.publish(early.type, early)
  const unscoped = newEnvelope({
    type: IdentityEvents.customerUpserted.type,
    tenant_id: '',
    workspace_id: '',
    actor: identity,
    data: { customer_id: 'rec-nowhere', user_id: 'nowhere', name: 'x', source: 'web', tags: [] },
  })
  await bus.publish(unscoped.type, unscoped)
  const token = newEnvelope({
    type: IdentityEvents.tokenDenied.type,
    ...ACME_SUPPORT,
    actor: identity,
    data: { jti: 'j', user_id: 'u', session_id: 's', token_use: 'access', expires_at: new Date().toISOString() },
  })
  await bus.publish(token.type, token)

  const config = {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent', SLA_MONITOR_ENABLED: 'false' }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  const app = await tickets.build(config, { logger: silentLogger(), bus })
  t.teardown(() => app.close())
  await app.ready()
  const svc = tickets.contextOf(app)
  const h = { agent: await as(agent), other: await as(otherTenant) }
  // the inbox belongs to @switchboard/events, not to the service's typed tables
  const applied = async (eventId: string) =>
    (await (svc.db as unknown as Kysely<any>)
      .selectFrom('inbox')
      .select('event_id')
      .where('event_id', '=', eventId)
      .executeTakeFirst()) !== undefined
  const directoryRow = () =>
    svc.db.selectFrom('directory_customers').selectAll().where('customer_id', '=', 'rec-pc-1').executeTakeFirst()

  t.test(
    'the directory is rebuilt from the stream; other identity events and unscoped records are skipped',
    async (t) => {
      const row = await waitFor(directoryRow)
      t.match(row, { user_id: 'pc-1', name: 'First name', tenant_id: 'acme', workspace_id: 'support' })
      await waitFor(() => applied(token.id))
      t.equal(
        await svc.db
          .selectFrom('directory_customers')
          .select('user_id')
          .where('user_id', '=', 'nowhere')
          .executeTakeFirst(),
        undefined,
      )
      const res = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: h.agent,
        payload: { title: 'Known by replay', customer_id: 'rec-pc-1' },
      })
      t.equal(res.statusCode, 201)
      t.equal(res.json().customer_id, 'pc-1')
    },
  )

  t.test('a newer event wins over an older one delivered after it', async (t) => {
    const newer = customer('Newest name')
    await bus.publish(newer.type, newer)
    await waitFor(async () => (await directoryRow())?.name === 'Newest name')
    const stale = customer('Stale name', new Date(Date.parse(newer.occurred_at) - 60_000).toISOString())
    await bus.publish(stale.type, stale)
    await waitFor(() => applied(stale.id))
    t.equal((await directoryRow())?.name, 'Newest name')
  })

  t.test('an event without a scope updates a known record by its id, and places no new one', async (t) => {
    await makeKnown(svc, ACME_SUPPORT, { agents: ['pa-1'] })
    const status = newEnvelope({
      type: IdentityEvents.agentStatusChanged.type,
      tenant_id: '',
      workspace_id: '',
      actor: identity,
      data: { agent_id: recordId(ACME_SUPPORT, 'pa-1'), user_id: 'pa-1', status: 'away', previous: 'online' },
    })
    const stranger = newEnvelope({
      type: IdentityEvents.agentStatusChanged.type,
      tenant_id: '',
      workspace_id: '',
      actor: identity,
      data: { agent_id: 'rec-stranger', user_id: 'stranger', status: 'online', previous: 'offline' },
    })
    await bus.publish(status.type, status)
    await bus.publish(stranger.type, stranger)
    await waitFor(() => applied(stranger.id))
    const rows = await svc.db
      .selectFrom('directory_agents')
      .select(['user_id', 'status', 'tenant_id'])
      .where('user_id', 'in', ['pa-1', 'stranger'])
      .execute()
    t.same(rows, [{ user_id: 'pa-1', status: 'away', tenant_id: 'acme' }])
  })

  t.test(
    'a ticket created in a conversation announces the link; the conversations it continues are listed',
    async (t) => {
      await makeKnown(svc, { tenant_id: 'globex', workspace_id: 'support' }, { customers: ['pc-1'] })
      await makeSessionsKnown(svc, ACME_SUPPORT, ['sess-1'], 'pc-1')
      const res = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: h.agent,
        payload: { title: 'From chat', customer_id: 'pc-1', session_id: 'sess-1' },
      })
      const ticket = res.json()
      t.equal(ticket.session_id, 'sess-1')
      const linked = await waitFor(async () =>
        (await streamEvents(bus, 'TICKETS')).find((e) => e.envelope.type === 'tickets.ticket.session_linked'),
      )
      t.match(linked.envelope, {
        tenant_id: 'acme',
        data: { ticket_id: ticket.id, session_id: 'sess-1', customer_id: 'pc-1' },
      })

      const conversations = async (headers = h.agent) =>
        app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/conversations`, headers })
      t.same((await conversations()).json(), { count: 0, items: [] }, 'not until conversations links the session')
      const started = '2026-11-24T08:00:00.000Z'
      await sessionEvent(svc, ACME_SUPPORT, {
        session_id: 'sess-1',
        ticket_id: ticket.id,
        customer_id: 'pc-1',
        started_at: started,
      })
      await sessionEvent(
        svc,
        ACME_SUPPORT,
        { session_id: 'sess-2', ticket_id: ticket.id, started_at: '2026-11-24T09:00:00.000Z' },
        ConversationEvents.sessionCreated.type,
      )
      await sessionEvent(
        svc,
        ACME_SUPPORT,
        { session_id: 'sess-x', ticket_id: null },
        ConversationEvents.sessionCreated.type,
      )
      const listed = await waitFor(async () => {
        const body = (await conversations()).json()
        return body.count === 2 ? body : undefined
      })
      t.same(
        listed.items.map((s: { session_id: string }) => s.session_id),
        ['sess-2', 'sess-1'],
        'newest first; sessions of no ticket are not kept',
      )
      t.match(listed.items[1], {
        status: 'active',
        channel: 'web',
        customer_id: 'pc-1',
        started_at: started,
        ended_at: null,
      })

      await sessionEvent(
        svc,
        ACME_SUPPORT,
        { session_id: 'sess-1', ticket_id: ticket.id, agent_id: 'agent-1', status: 'active', started_at: started },
        ConversationEvents.sessionAssigned.type,
      )
      await waitFor(
        async () =>
          (await conversations()).json().items.find((s: { session_id: string }) => s.session_id === 'sess-1')
            ?.agent_id === 'agent-1',
      )
      await sessionEvent(svc, ACME_SUPPORT, { session_id: 'sess-2', ticket_id: null })
      await waitFor(async () => (await conversations()).json().count === 1)
      const foreign = await conversations(h.other)
      t.equal(foreign.statusCode, 404)
      t.equal(foreign.json().code, 'TICKETS_NOT_FOUND')
    },
  )
})
