import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { registerUser } from '../helpers/app.ts'
import { createCustomer, directoryFixture } from '../helpers/directory.ts'

// The directory fields and routes the earlier system's acceptance checks used (services/identity/README.md).
inEachStorageMode(t, 'directory: the earlier system’s fields and routes', async (t, mode) => {
  const { app, who, rec, req } = await directoryFixture(t, mode)

  await t.test('customers: company, industry, priority, notes; tags from a comma-separated string', async (t) => {
    const res = await req('POST', '/api/customers', who.acmeAdmin, {
      name: 'Hana',
      email: 'hana@acme.test',
      company: 'Hanabi KK',
      industry: 'retail',
      priority: 'high',
      notes: 'prefers phone',
      tags: 'vip, de,vip',
    })
    t.equal(res.statusCode, 201, res.body)
    const c = res.json()
    t.match(c, { company: 'Hanabi KK', industry: 'retail', priority: 'high', notes: 'prefers phone' })
    t.same(c.tags, ['vip', 'de'], 'split, trimmed, deduplicated: never one element "vip, de,vip"')
    const event = await rec.find('identity.customer.upserted', (d: any) => d.customer_id === c.id)
    t.equal(event.data.priority, 'high', 'SLA configs will match on it')
    const plain = await createCustomer(app, who.acmeAdmin, { name: 'Ivo', email: 'ivo@acme.test', tags: ['a,b'] })
    const got = (await req('GET', `/api/customers/${plain.id}`, who.acmeAdmin)).json()
    t.match(got, { priority: 'normal', company: '', industry: '', notes: '', tags: ['a', 'b'] })
    t.equal(
      (await req('POST', '/api/customers', who.acmeAdmin, { name: 'x', email: 'x@acme.test', priority: 'p1' }))
        .statusCode,
      400,
    )
    const tooMany = Array.from({ length: 51 }, (_, i) => `t${i}`).join(',')
    const refused = await req('POST', '/api/customers', who.acmeAdmin, {
      name: 'y',
      email: 'y@acme.test',
      tags: tooMany,
    })
    t.equal(refused.statusCode, 400)
    t.match(refused.json(), { code: 'IDENTITY_INVALID_INPUT', message: /body\.tags/ })

    const tags = await req('PUT', `/api/customers/${c.id}/tags`, who.acmeAdmin, { tags: 'gold,churn-risk' })
    t.same(tags.json().tags, ['gold', 'churn-risk'])
    const upd = await req('PUT', `/api/customers/${c.id}`, who.acmeAdmin, { priority: 'urgent', industry: 'food' })
    t.match(upd.json(), { priority: 'urgent', industry: 'food', company: 'Hanabi KK' })
    const filtered = await req('GET', '/api/customers?priority=urgent&industry=food', who.acmeAdmin)
    t.same(
      filtered.json().data.map((x: any) => x.id),
      [c.id],
    )
  })

  await t.test('notes take `note` as well as `content`', async (t) => {
    const c = await createCustomer(app, who.acmeAdmin, { name: 'Nia', email: 'nia@acme.test' })
    const url = `/api/customers/${c.id}/notes`
    const legacy = await req('POST', url, who.acmeAdmin, { note: 'called back' })
    t.equal(legacy.statusCode, 201, legacy.body)
    t.equal(legacy.json().content, 'called back')
    t.equal((await req('POST', url, who.acmeAdmin, { content: 'same', note: 'same' })).statusCode, 201)
    t.equal((await req('POST', url, who.acmeAdmin, { content: 'a', note: 'b' })).statusCode, 400, 'disagreeing')
    t.equal((await req('POST', url, who.acmeAdmin, {})).statusCode, 400, 'neither')
    t.equal((await req('GET', url, who.acmeAgent)).json().count, 2)
  })

  await t.test('GET /api/customers/stats answers stats, not "customer not found"', async (t) => {
    const nia = (await req('GET', '/api/customers?search=nia', who.acmeAdmin)).json().data[0]
    await req('PUT', `/api/security/users/${nia.user_id}/status`, who.acmeAdmin, { status: 'inactive' })
    const res = await req('GET', '/api/customers/stats', who.acmeAgent)
    t.equal(res.statusCode, 200, res.body)
    const s = res.json()
    t.match(s, { total: 3, active: 2, new_this_week: 3 }, 'active: whose account is active')
    t.same(s.by_priority, [
      { priority: 'normal', count: 2 },
      { priority: 'urgent', count: 1 },
    ])
    t.same(s.by_source, [{ source: 'web', count: 3 }])
    t.same(s.by_industry, [
      { industry: '', count: 2 },
      { industry: 'food', count: 1 },
    ])
    const globex = (await req('GET', '/api/customers/stats', who.globexAdmin)).json()
    t.match(globex, { total: 0, active: 0, by_source: [] }, 'per scope')
    const all = (await req('GET', '/api/customers/stats', who.platform)).json()
    t.equal(all.total, 3, 'unscoped: every tenant')
    t.equal((await req('GET', '/api/customers/stats', who.acmeUser)).statusCode, 403, 'end users no')
  })

  await t.test('agents: skills from a comma-separated string; /online and /stats', async (t) => {
    const u1 = (await registerUser(app, 'ag1')).body.user.id
    const u2 = (await registerUser(app, 'ag2')).body.user.id
    const u3 = (await registerUser(app, 'ag3')).body.user.id
    const a1 = await req('POST', '/api/agents', who.platformInAcme, { user_id: u1, skills: 'billing, en' })
    t.equal(a1.statusCode, 201, a1.body)
    t.same(a1.json().skills, ['billing', 'en'])
    const a2 = (await req('POST', '/api/agents', who.platformInAcme, { user_id: u2, skills: ['de', 'fr,it'] })).json()
    t.same(a2.skills, ['de', 'fr', 'it'])
    await req('POST', '/api/agents', who.platformInAcme, { user_id: u3 })
    const upd = await req('PUT', `/api/agents/${a2.id}`, who.acmeAdmin, { skills: 'sales,de' })
    t.same(upd.json().skills, ['sales', 'de'])

    await req('POST', `/api/agents/${a1.json().id}/online`, who.acmeAdmin)
    await req('PUT', `/api/agents/${a2.id}/status`, who.acmeAdmin, { status: 'busy' })
    const online = await req('GET', '/api/agents/online', who.acmeAgent)
    t.equal(online.statusCode, 200, online.body)
    t.equal(online.json().count, 2)
    t.match(online.json().items, [
      { id: a1.json().id, status: 'online', skills: ['billing', 'en'], max_concurrent: 5 },
      { id: a2.id, status: 'busy', skills: ['sales', 'de'] },
    ])
    t.same((await req('GET', '/api/agents/online', who.globexAdmin)).json(), { count: 0, items: [] })

    const stats = await req('GET', '/api/agents/stats', who.acmeAgent)
    t.equal(stats.statusCode, 200, stats.body)
    t.same(stats.json(), { total: 3, online: 1, busy: 1, avg_response_time: 0, avg_rating: 0 })
    const one = await req('GET', `/api/agents/stats?agent_id=${a2.id}`, who.acmeAgent)
    t.same(one.json(), { total: 1, online: 0, busy: 1, avg_response_time: 0, avg_rating: 0 })
    t.same((await req('GET', '/api/agents/stats', who.globexAdmin)).json(), {
      total: 0,
      online: 0,
      busy: 0,
      avg_response_time: 0,
      avg_rating: 0,
    })
    t.equal((await req('GET', '/api/agents/no-such-id', who.acmeAgent)).statusCode, 404, '/:id is still there')
  })
})
