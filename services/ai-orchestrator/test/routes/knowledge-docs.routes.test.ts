import type { AuditRecordData, Envelope } from '@switchboard/contracts'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t from 'tap'
import { ACME, agent, aiApp, call, GLOBEX, platformAdmin } from '../helpers/app.ts'

const DOCS = '/api/knowledge-docs'

inEachStorageMode(t, 'knowledge docs: CRUD, scope, pagination', async (t, mode) => {
  const { app, svc } = await aiApp(t, mode)
  const acme = agent(ACME)
  const globex = agent(GLOBEX)

  const created = await call(app, acme, 'POST', DOCS, {
    title: '  Reset your password ',
    content: 'Open Settings, choose Security and press Reset password.',
    category: 'account',
    tags: ['password', 'password', 'login'],
  })
  t.equal(created.statusCode, 201, created.body)
  const doc = created.json()
  t.match(doc, {
    tenant_id: 'acme',
    workspace_id: 'support',
    title: 'Reset your password',
    category: 'account',
    tags: ['password', 'login'],
    is_public: false,
    provider_id: null,
    external_id: null,
    sync_error: null,
    sync: { provider: null, status: 'local_only' },
  })
  t.notOk('error' in doc.sync, 'no error without a provider')

  t.test('read: own scope only, another scope is a 404 like a missing doc', async (t) => {
    const own = await call(app, acme, 'GET', `${DOCS}/${doc.id}`)
    t.equal(own.statusCode, 200)
    t.equal(own.json().title, 'Reset your password')
    t.notOk('sync' in own.json(), 'sync is the answer of a write')
    for (const url of [`${DOCS}/${doc.id}`, `${DOCS}/missing-id`]) {
      const res = await call(app, url.endsWith('missing-id') ? acme : globex, 'GET', url)
      t.equal(res.statusCode, 404)
      t.equal(res.json().code, 'KNOWLEDGE_DOC_NOT_FOUND')
    }
    t.equal((await call(app, globex, 'PUT', `${DOCS}/${doc.id}`, { title: 'x' })).statusCode, 404)
    t.equal((await call(app, globex, 'DELETE', `${DOCS}/${doc.id}`)).statusCode, 404)
    t.same((await call(app, globex, 'GET', DOCS)).json(), { data: [], total: 0, page: 1, page_size: 20, pages: 1 })
    // an administrator without a scope sees every scope's
    t.equal((await call(app, platformAdmin(), 'GET', `${DOCS}/${doc.id}`)).statusCode, 200)
  })

  t.test('update: fields given change, the rest stay', async (t) => {
    const res = await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, { is_public: true, tags: ['security'] })
    t.equal(res.statusCode, 200, res.body)
    t.match(res.json(), {
      title: 'Reset your password',
      content: doc.content,
      category: 'account',
      tags: ['security'],
      is_public: true,
      sync: { status: 'local_only' },
    })
    t.ok(res.json().updated_at >= doc.updated_at)
    t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).json().is_public, true)
  })

  t.test('list: filters and the paginated envelope', async (t) => {
    for (let i = 1; i <= 4; i++) {
      const res = await call(app, acme, 'POST', DOCS, {
        title: `Invoice question ${i}`,
        content: i % 2 ? 'Where is my invoice? Refund_policy applies.' : 'Billing cycles explained.',
        category: 'billing',
        is_public: i === 1,
      })
      t.equal(res.statusCode, 201)
    }
    const all = (await call(app, acme, 'GET', DOCS)).json()
    t.match(all, { total: 5, page: 1, page_size: 20, pages: 1 })
    t.equal(all.data[0].title, 'Invoice question 4', 'newest change first')
    const page = (await call(app, acme, 'GET', `${DOCS}?page=2&page_size=2`)).json()
    t.match(page, { total: 5, page: 2, page_size: 2, pages: 3 })
    t.equal(page.data.length, 2)
    t.equal((await call(app, acme, 'GET', `${DOCS}?category=billing`)).json().total, 4)
    t.equal((await call(app, acme, 'GET', `${DOCS}?public_only=true`)).json().total, 2)
    const search = (q: string) => call(app, acme, 'GET', `${DOCS}?search=${encodeURIComponent(q)}`)
    t.equal((await search('INVOICE')).json().total, 4, 'case-insensitive, title or content')
    t.equal((await search('invoice refund')).json().total, 2, 'every word')
    t.equal((await search('refund_policy')).json().total, 2, 'LIKE wildcards are literals')
    t.equal((await search('refund%policy')).json().total, 2, 'tokens: refund, policy')
    t.equal((await search('100%')).json().total, 0, 'no token: matched as it is')
    for (const odd of ['"', "'; drop table knowledge_docs; --", '\\', '(((', 'a OR b NOT', '*']) {
      const res = await search(odd)
      t.equal(res.statusCode, 200, `search ${JSON.stringify(odd)}`)
    }
    const bad = await call(app, acme, 'GET', `${DOCS}?page_size=500`)
    t.equal(bad.statusCode, 400)
  })

  t.test('validation', async (t) => {
    const blank = await call(app, acme, 'POST', DOCS, { title: '   ', content: 'x' })
    t.equal(blank.statusCode, 400)
    t.equal(blank.json().code, 'KNOWLEDGE_DOC_INVALID')
    t.equal((await call(app, acme, 'POST', DOCS, { title: 'x' })).statusCode, 400, 'content is required')
    t.equal((await call(app, acme, 'POST', DOCS, { title: 'x', content: 'y', extra: 1 })).statusCode, 400)
    t.equal((await call(app, acme, 'PUT', `${DOCS}/${doc.id}`, { content: '' })).statusCode, 400)
    const half = await call(app, agent({ tenant_id: 'acme', workspace_id: '' }), 'POST', DOCS, {
      title: 'x',
      content: 'y',
    })
    t.equal(half.statusCode, 400, 'half a scope is refused')
  })

  t.test('an administrator without a scope writes the system scope', async (t) => {
    const res = await call(app, platformAdmin(), 'POST', DOCS, { title: 'System doc', content: 'for everyone' })
    t.equal(res.statusCode, 201)
    t.match(res.json(), { tenant_id: '', workspace_id: '' })
    t.equal((await call(app, acme, 'GET', `${DOCS}/${res.json().id}`)).statusCode, 404, 'not a tenant doc')
  })

  t.test('delete', async (t) => {
    const res = await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)
    t.equal(res.statusCode, 200)
    t.same(res.json(), { message: 'deleted' })
    t.equal((await call(app, acme, 'GET', `${DOCS}/${doc.id}`)).statusCode, 404)
    t.equal((await call(app, acme, 'DELETE', `${DOCS}/${doc.id}`)).statusCode, 404)
  })

  t.test('every write is audited with the doc id and its snapshots', async (t) => {
    const audits = await waitFor(async () => {
      const all: Envelope<AuditRecordData>[] = []
      await svc.bus.replay('AUDIT', {}, async (d) => {
        const e = d.envelope as Envelope<AuditRecordData>
        if (e.data.resource_id === doc.id) all.push(e)
      })
      return all.length >= 6 ? all : undefined
    })
    const find = (action: string, status: number) =>
      audits.find((e) => e.data.action === action && e.data.status_code === status)
    t.match(find('knowledge_docs.create', 201)?.data, { after_json: { title: 'Reset your password' } })
    t.match(find('knowledge_docs.update', 200)?.data, {
      before_json: { is_public: false },
      after_json: { is_public: true },
    })
    t.match(find('knowledge_docs.delete', 200)?.data, { before_json: { id: doc.id } })
    t.ok(find('knowledge_docs.delete', 404), 'a failed write too')
  })
})
