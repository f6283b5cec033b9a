import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { as, conversationsApp, principal } from '../helpers/app.ts'
import { recordingBus } from '../helpers/audit-bus.ts'
import { seedAgent, seedCustomer } from '../helpers/omni.ts'

// Conversation management is the `workspace` resource (its permission is `workspace.*`): its writes are audited as
// workspace.<verb> (the platform's actionFor, which the gateway's refusal records use too), the refused ones too,
// never under the path's `omni` segment.

inEachStorageMode(t, 'conversation management audit records', async (t, mode) => {
  const audits: Envelope<AuditRecordData>[] = []
  const { app, svc } = await conversationsApp(t, mode, { bus: recordingBus(audits) })
  const agent = await as(principal())
  await seedAgent(svc, { user_id: 'agent-1' })
  await seedAgent(svc, { user_id: 'agent-2' })
  await seedCustomer(svc, { user_id: 'cust-a' })
  const post = (url: string, payload?: object) =>
    app.inject({ method: 'POST', url, headers: agent, ...(payload ? { payload } : {}) })

  const created = await post('/api/omni/sessions', { customer_id: 'cust-a', agent_id: 'agent-1' })
  t.equal(created.statusCode, 201)
  const id = created.json().id as string
  const url = `/api/omni/sessions/${id}`
  t.equal((await post(`${url}/messages`, { content: 'Hello' })).statusCode, 201)
  t.equal((await post(`${url}/assign`, {})).statusCode, 400, 'refused by the schema, before any handler')
  t.equal((await post(`${url}/assign`, { agent_id: 'agent-1' })).statusCode, 200)
  t.equal((await post(`${url}/transfer`, { to_agent_id: 'agent-2' })).statusCode, 200)
  t.equal((await post(`${url}/close`)).statusCode, 200)
  t.equal((await post(`${url}/close`)).statusCode, 409)

  const records = await waitFor(() => {
    const mine = audits.filter((a) => a.data.route.startsWith('/api/omni/'))
    return mine.length >= 7 ? mine : undefined
  })
  // audit records are queued after each response is sent, so two quick requests may swap places
  const summary = records.map((a) => [a.data.action, a.data.resource_type, a.data.status_code, a.data.resource_id])
  t.same(
    summary.sort(),
    [
      ['workspace.assign', 'workspace', 200, id],
      ['workspace.assign', 'workspace', 400, id],
      ['workspace.close', 'workspace', 200, id],
      ['workspace.close', 'workspace', 409, id],
      ['workspace.create', 'workspace', 201, id],
      ['workspace.messages', 'workspace', 201, id],
      ['workspace.transfer', 'workspace', 200, id],
    ].sort(),
  )
  t.notOk(
    audits.some((a) => a.data.action.startsWith('omni.')),
    'no record under the path segment',
  )
})
