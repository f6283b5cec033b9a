import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { ACME, agent, aiApp, call, GLOBEX, platformAdmin } from '../helpers/app.ts'

inEachStorageMode(t, 'the public knowledge base', async (t, mode) => {
  const { app } = await aiApp(t, mode)
  const write = async (who: ReturnType<typeof agent>, title: string, is_public: boolean, content = 'How to reset') => {
    const res = await call(app, who, 'POST', '/api/knowledge-docs', { title, content, is_public, tags: ['kb'] })
    t.equal(res.statusCode, 201, res.body)
    return res.json().id as string
  }
  const acmePublic = await write(agent(ACME), 'Acme public', true, 'Reset your password from the login page.')
  const acmeSecond = await write(agent(ACME), 'Acme opening hours', true, 'Open from nine to five.')
  const acmeInternal = await write(agent(ACME), 'Acme internal', false)
  const globexPublic = await write(agent(GLOBEX), 'Globex public', true)
  const systemPublic = await write(platformAdmin(), 'System public', true)
  await write(platformAdmin(), 'System internal', false)

  const anon = (url: string) => call(app, null, 'GET', url)
  const acmeQuery = 'tenant_id=acme&workspace_id=support'

  t.test('lists the public docs of the scope named, newest first', async (t) => {
    const res = await anon(`/public/kb/docs?${acmeQuery}`)
    t.equal(res.statusCode, 200)
    const page = res.json()
    t.match(page, { total: 2, page: 1, page_size: 20, pages: 1 })
    t.same(
      page.data.map((d: { id: string }) => d.id),
      [acmeSecond, acmePublic],
    )
    t.same(Object.keys(page.data[0]).sort(), ['category', 'content', 'created_at', 'id', 'tags', 'title', 'updated_at'])
    t.same(
      (await anon('/public/kb/docs?tenant_id=globex&workspace_id=main')).json().data.map((d: { id: string }) => d.id),
      [globexPublic],
    )
    t.match((await anon(`/public/kb/docs?${acmeQuery}&page=2&page_size=1`)).json(), {
      total: 2,
      page: 2,
      pages: 2,
      data: [{ id: acmePublic }],
    })
  })

  t.test('no scope named: the system scope', async (t) => {
    t.same(
      (await anon('/public/kb/docs')).json().data.map((d: { id: string }) => d.id),
      [systemPublic],
    )
    t.equal((await anon('/public/kb/docs?tenant_id=acme')).json().total, 0, 'half a scope is no tenant scope')
  })

  t.test('search', async (t) => {
    const res = await anon(`/public/kb/docs?${acmeQuery}&search=${encodeURIComponent('password RESET')}`)
    t.same(
      res.json().data.map((d: { id: string }) => d.id),
      [acmePublic],
    )
    t.equal((await anon(`/public/kb/docs?${acmeQuery}&search=internal`)).json().total, 0, 'never a private doc')
    t.equal((await anon(`/public/kb/docs?${acmeQuery}&search=${encodeURIComponent('"(*')}`)).statusCode, 200)
  })

  t.test('one doc: public only, of the scope named', async (t) => {
    const ok = await anon(`/public/kb/docs/${acmePublic}?${acmeQuery}`)
    t.equal(ok.statusCode, 200)
    t.match(ok.json(), { id: acmePublic, title: 'Acme public', tags: ['kb'] })
    t.notOk('tenant_id' in ok.json())

    const internal = await anon(`/public/kb/docs/${acmeInternal}?${acmeQuery}`)
    t.equal(internal.statusCode, 404)
    t.match(internal.json(), { code: 'KNOWLEDGE_DOC_NOT_FOUND', message: 'document is not public' })

    for (const url of [
      `/public/kb/docs/${acmePublic}`, // the system scope
      `/public/kb/docs/${acmePublic}?tenant_id=globex&workspace_id=main`,
      `/public/kb/docs/missing?${acmeQuery}`,
    ]) {
      const res = await anon(url)
      t.equal(res.statusCode, 404, url)
      t.equal(res.json().code, 'KNOWLEDGE_DOC_NOT_FOUND')
      t.match(res.json().message, /not found/)
    }
    t.equal((await anon(`/public/kb/docs/${systemPublic}`)).statusCode, 200)
  })
})
