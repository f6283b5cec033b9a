// conversations' part of a tenant's erasure (both storage modes): after identity.tenant.erasure_requested every message
// of the tenant reads as the tombstone, its sessions keep their rows, seq and counts, its agents' names go from the
// projection; another tenant keeps everything; a second delivery is skipped (one report).
import { ERASED_TEXT, IdentityTenantErasureEvents } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { ConversationsService } from '../../src/context.ts'
import { as, servicePrincipal } from '../helpers/app.ts'
import { seedAgent } from '../helpers/omni.ts'
import { published, publishIdentity, QUIET_QUEUE } from '../helpers/queue.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

const REPORTED = 'conversations.tenant_erasure.reported'

const erasure = (tenant_id: string) => ({
  tenant_erasure_id: `te-${tenant_id}`,
  tenant_id,
  user_ids: ['agent-1', 'cust-1'],
  identifiers: ['Ada'],
})

/** Each session's messages of a tenant, in order: [session, seq, content, created_at]. */
const threads = async (svc: ConversationsService, tenant_id: string) =>
  (
    await svc.db
      .selectFrom('messages')
      .select(['session_id', 'seq', 'content', 'created_at'])
      .where('tenant_id', '=', tenant_id)
      .orderBy('session_id')
      .orderBy('seq')
      .execute()
  ).map((m) => ({ ...m, created_at: String(m.created_at) }))

inEachStorageMode(t, "conversations' part of a tenant's erasure", async (t, mode) => {
  const { svc, h, post, get, customerSession } = await sessionsFixture(t, mode, { env: QUIET_QUEUE })
  const globexHub = await as(servicePrincipal({ tenant_id: 'globex', workspace_id: 'support' }))
  await seedAgent(svc, { user_id: 'agent-g', name: 'Gil', tenant_id: 'globex' })

  const first = await customerSession({ content: 'my parcel PX-ACME-1 is lost' })
  const second = await customerSession({ content: 'call me on 555-ACME' })
  const reply = await post(
    `/api/omni/sessions/${first.id}/messages`,
    { content: 'Dear customer, Ada here (ACME)' },
    h.supervisor,
  )
  t.equal(reply.statusCode, 201, reply.body)
  const kept = await post(
    '/internal/sessions/s-globex-1/messages',
    { sender: 'customer', customer_id: 'cust-g', content: 'globex words GLOBEX-1' },
    globexHub,
  )
  t.equal(kept.statusCode, 201, kept.body)

  const before = await threads(svc, 'acme')
  t.equal(before.length, 3, 'three messages of acme')
  const globexBefore = await threads(svc, 'globex')

  const sent = await publishIdentity(svc, IdentityTenantErasureEvents.requested, erasure('acme'), {
    tenant_id: 'acme',
    workspace_id: '',
  })
  const [report] = await waitFor(async () => {
    const r = await published(svc, REPORTED)
    return r.length > 0 ? r : undefined
  })

  t.test('it reports what it tombstoned', async (t) => {
    t.match(report, {
      tenant_id: 'acme',
      data: {
        tenant_erasure_id: 'te-acme',
        service: 'conversations',
        counts: { sessions_tombstoned: 2, messages_tombstoned: 3, agent_projections_emptied: 4, uploads_deleted: 0 },
      },
    })
  })

  t.test('every message of the tenant is the tombstone; rows, seq, times and counts stay', async (t) => {
    t.same(
      await threads(svc, 'acme'),
      before.map((m) => ({ ...m, content: ERASED_TEXT })),
    )
    const thread = (await get(`/api/omni/sessions/${first.id}/messages`)).json()
    t.same(
      thread.items.map((m: { content: string }) => m.content),
      [ERASED_TEXT, ERASED_TEXT],
      'the API reads the tombstones, both messages still there',
    )
    const session = (await get(`/api/omni/sessions/${second.id}`)).json()
    t.match(session, { id: second.id, status: String })
    const names = await svc.db.selectFrom('agents').select('name').where('tenant_id', '=', 'acme').execute()
    t.same(
      names.map((a) => a.name),
      ['', '', '', ''],
      "the tenant's agents' names forgotten",
    )
  })

  t.test('another tenant keeps everything', async (t) => {
    t.same(await threads(svc, 'globex'), globexBefore)
    t.equal(globexBefore[0]?.content, 'globex words GLOBEX-1')
    const gil = await svc.db.selectFrom('agents').select('name').where('tenant_id', '=', 'globex').executeTakeFirst()
    t.equal(gil?.name, 'Gil')
  })

  t.test('a second delivery is skipped: one report, nothing changed', async (t) => {
    await svc.bus.publish(sent.type, sent, { msgId: `${sent.id}-again` })
    await publishIdentity(svc, IdentityTenantErasureEvents.requested, erasure('initech'), {
      tenant_id: 'initech',
      workspace_id: '',
    })
    // one consumer takes the subject in order: once initech's report is out, the redelivery was handled
    const all = await waitFor(async () => {
      const r = await published(svc, REPORTED)
      return r.some((x) => x.tenant_id === 'initech') ? r : undefined
    })
    t.equal(all.filter((r) => r.tenant_id === 'acme').length, 1, 'acme reported once')
    t.same(
      await threads(svc, 'acme'),
      before.map((m) => ({ ...m, content: ERASED_TEXT })),
    )
  })
})
