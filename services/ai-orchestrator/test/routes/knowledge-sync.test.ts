import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME, agent, aiApp, call, platformAdmin } from '../helpers/app.ts'
import { startCompatibilityStandIn, startPrimaryStandIn } from '../helpers/stand-ins.ts'

const DOCS = '/api/knowledge-docs'
/**
 * The providers here are the system's, shared by every tenant: only system-scope documents (a platform operator's)
 * go there; a tenant's stay local (the last test).
 */
const acme = platformAdmin()

inEachStorageMode(t, 'knowledge docs in the primary provider', async (t, mode) => {
  const primary = await startPrimaryStandIn()
  t.teardown(() => primary.close())
  const { app } = await aiApp(t, mode, {}, { primary: primary.settings() })

  t.test('create, update, delete: the provider copy follows', async (t) => {
    const res = await call(app, acme, 'POST', DOCS, { title: 'Refunds', content: 'Five days.', tags: ['billing'] })
    t.equal(res.statusCode, 201, res.body)
    const doc = res.json()
    t.match(doc, { provider_id: 'primary', sync_error: null, sync: { provider: 'primary', status: 'synced' } })
    t.ok(doc.external_id, 'the provider id is kept')
    t.match(primary.docs.get(doc.external_id), { title: 'Refunds', content: 'Five days.' })

    const updated = await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, { content: 'Seven days.' })
    t.equal(updated.statusCode, 200, updated.body)
    t.match(updated.json(), { external_id: doc.external_id, sync: { status: 'synced' } })
    t.equal(primary.docs.get(doc.external_id)?.content, 'Seven days.', 'the same provider document, updated')
    t.equal(primary.docs.size, 1)

    const deleted = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
    t.equal(deleted.statusCode, 200, deleted.body)
    t.equal(primary.docs.size, 0, 'deleted in the provider')
    t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).statusCode, 404)
  })

  t.test('a failing provider loses no local write', async (t) => {
    primary.setMode('error')
    const res = await call(app, acme, 'POST', DOCS, { title: 'Shipping', content: 'Two days.' })
    t.equal(res.statusCode, 201, res.body)
    const doc = res.json()
    t.match(doc, {
      provider_id: null,
      external_id: null,
      sync_error: /^primary provider: /,
      sync: { provider: 'primary', status: 'failed', error: /^primary provider: / },
    })
    t.match((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).json(), { title: 'Shipping', sync_error: /primary/ })

    primary.setMode('good')
    const retried = await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, {})
    t.match(retried.json(), { provider_id: 'primary', sync_error: null, sync: { status: 'synced' } })
    const externalId = retried.json().external_id

    primary.setMode('error')
    const failedUpdate = await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, { title: 'Shipping times' })
    t.match(failedUpdate.json(), {
      title: 'Shipping times',
      provider_id: 'primary',
      external_id: externalId,
      sync: { status: 'failed' },
    })

    const refused = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
    t.equal(refused.statusCode, 502)
    t.equal(refused.json().code, 'AI_PROVIDER_FAILED')
    primary.setMode('slow', { slowMs: 1500 })
    const slow = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
    t.equal(slow.statusCode, 504)
    t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).statusCode, 200, 'kept while its copy is there')

    primary.setMode('good')
    t.equal((await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)).statusCode, 200)
  })

  t.test('the provider switched off: local only, and its copies are not deleted behind its back', async (t) => {
    const doc = (await call(app, acme, 'POST', DOCS, { title: 'Returns', content: 'Thirty days.' })).json()
    t.equal(doc.sync.status, 'synced')
    t.equal((await call(app, acme, 'PUT', '/api/v1/ai/knowledge-provider/disable?provider=primary')).statusCode, 200)
    const updated = await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, { content: 'Sixty days.' })
    t.match(updated.json(), {
      provider_id: 'primary',
      sync_error: 'not updated in the primary provider: it is not enabled',
      sync: { provider: null, status: 'local_only' },
    })
    const refused = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
    t.equal(refused.statusCode, 409)
    t.equal(refused.json().code, 'AI_PROVIDER_NOT_CONFIGURED')
    t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).statusCode, 200)

    const local = (await call(app, acme, 'POST', DOCS, { title: 'Local', content: 'only' })).json()
    t.match(local, { provider_id: null, sync_error: null, sync: { status: 'local_only' } })
    t.equal((await call(app, acme, 'DELETE', `${DOCS}/${local.id}`)).statusCode, 200, 'no copy, nothing to refuse')
  })
})

inEachStorageMode(t, 'knowledge docs in the compatibility provider', async (t, mode) => {
  const compat = await startCompatibilityStandIn()
  t.teardown(() => compat.close())
  const { app } = await aiApp(t, mode, {}, { compatibility: compat.settings() })

  const res = await call(app, acme, 'POST', DOCS, { title: 'Warranty', content: 'Two years.', tags: ['legal'] })
  t.equal(res.statusCode, 201, res.body)
  const doc = res.json()
  t.match(doc, { provider_id: 'compatibility', sync: { provider: 'compatibility', status: 'synced' } })
  t.match(compat.docs.get(doc.external_id), { title: 'Warranty', tags: ['legal'] })

  const refused = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
  t.equal(refused.statusCode, 409)
  t.equal(refused.json().code, 'KNOWLEDGE_DELETE_UNSUPPORTED')
  t.match(refused.json().message, /cannot delete documents: knowledge doc .* is kept/)
  t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).statusCode, 200, 'the local doc is kept')
  t.equal(compat.docs.size, 1)
})

inEachStorageMode(
  t,
  "a tenant's documents never go into the provider every tenant is answered from",
  async (t, mode) => {
    const primary = await startPrimaryStandIn()
    t.teardown(() => primary.close())
    const { app } = await aiApp(t, mode, {}, { primary: primary.settings() })
    const res = await call(app, agent(ACME), 'POST', DOCS, { title: 'Private refunds', content: 'Code 7781.' })
    t.equal(res.statusCode, 201, res.body)
    t.match(res.json(), { provider_id: null, external_id: null, sync: { provider: null, status: 'local_only' } })
    t.equal(primary.docs.size, 0, 'nothing reached the shared provider')
    const sync = await call(app, agent(ACME), 'POST', '/api/v1/ai/knowledge/sync')
    t.equal(sync.statusCode, 403, sync.body)
    t.equal(sync.json().code, 'AI_PROVIDER_SHARED')
  },
)
