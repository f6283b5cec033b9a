// The gateway's refusal records name conversation management as the services do (its permission is `workspace.*`): `/api/omni` is
// the `workspace` resource, so a refused assign is `workspace.assign`, never `omni.assign`.
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { accessToken, bearer, harness, seedUser } from './fixtures/gateway.ts'

t.test('a refused conversation management write is audited as workspace.<verb>', async (t) => {
  const h = await harness(t)
  const customer = await accessToken(seedUser(h, { claims: { roles: ['customer'] } }))
  for (const [url, action] of [
    ['/api/omni/sessions', 'workspace.create'],
    ['/api/omni/sessions/s-1/assign', 'workspace.assign'],
    ['/api/omni/sessions/s-1/transfer', 'workspace.transfer'],
    ['/api/omni/sessions/s-1/close', 'workspace.close'],
  ] as const) {
    const requestId = `omni-${action}`
    const res = await h.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(customer), 'x-request-id': requestId },
      payload: {},
    })
    t.equal(res.statusCode, 403, url)
    const record = await waitFor(async () => h.upstream.audit.records.find((r) => r.request_id === requestId))
    t.match(record.data, { action, resource_type: 'workspace', success: false, status_code: 403 }, url)
  }
})
