import { newEnvelope } from '@switchboard/events'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import type { ConversationsService } from '../../src/context.ts'
import { conversationsApp } from '../helpers/app.ts'
import { ACME, IdentityEvents, publishIdentity, QUIET_QUEUE } from '../helpers/queue.ts'

const customerRow = (svc: ConversationsService, customerId: string) =>
  svc.db.selectFrom('customers').selectAll().where('customer_id', '=', customerId).executeTakeFirst()

const facts = (customer_id: string, user_id: string) => ({ customer_id, user_id, name: 'C', source: 'web', tags: [] })

inEachStorageMode(t, 'customers projection', async (t, mode) => {
  const { svc } = await conversationsApp(t, mode, { env: QUIET_QUEUE })

  t.test('identity.customer.upserted makes a row in the envelope’s workspace', async (t) => {
    const sent = await publishIdentity(svc, IdentityEvents.customerUpserted, facts('cu-1', 'u-1'), {
      tenant_id: 'acme',
      workspace_id: 'sales',
    })
    t.match(await waitFor(() => customerRow(svc, 'cu-1')), {
      user_id: 'u-1',
      tenant_id: 'acme',
      workspace_id: 'sales',
      name: 'C',
      updated_at: sent.occurred_at,
    })
  })

  t.test('an older event never overwrites a newer one; an unscoped one updates a known customer only', async (t) => {
    const newer = await publishIdentity(svc, IdentityEvents.customerUpserted, facts('cu-2', 'u-2'))
    await waitFor(() => customerRow(svc, 'cu-2'))
    const late = newEnvelope({
      type: IdentityEvents.customerUpserted.type,
      tenant_id: 'globex',
      workspace_id: 'support',
      actor: { user_id: 'admin-1', kind: 'admin' },
      data: facts('cu-2', 'u-old'),
    })
    late.occurred_at = new Date(Date.parse(newer.occurred_at) - 60_000).toISOString()
    await svc.bus.publish(late.type, late)
    // without a scope: a customer nobody placed yet is not made up, a known one keeps its workspace
    await publishIdentity(svc, IdentityEvents.customerUpserted, facts('cu-3', 'u-3'), {
      tenant_id: '',
      workspace_id: '',
    })
    await publishIdentity(svc, IdentityEvents.customerUpserted, facts('cu-2', 'u-2b'), {
      tenant_id: '',
      workspace_id: '',
    })
    // one consumer handles the subject in order: once a later marker is applied, the events above were handled
    await publishIdentity(svc, IdentityEvents.customerUpserted, facts('cu-m', 'm'))
    await waitFor(() => customerRow(svc, 'cu-m'))
    t.match(await customerRow(svc, 'cu-2'), { ...ACME, user_id: 'u-2b' })
    t.equal(await customerRow(svc, 'cu-3'), undefined)
  })
})
