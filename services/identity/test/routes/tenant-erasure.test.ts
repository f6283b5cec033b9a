import { IdentityErasureEvents, IdentityEvents } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { createCustomer, directoryFixture, who as principal } from '../helpers/directory.ts'

// A tenant deleting itself, on both storage modes: its administrator erases every customer of every workspace of
// the tenant (one erasure and event each) and the tenant is disabled with them; another tenant's administrator is
// told nothing, an agent is refused, a repeat erases nobody new, another tenant's customers are untouched.
inEachStorageMode(t, 'tenant erasure', async (t, mode) => {
  const { app, svc, who, rec, req } = await directoryFixture(t, mode)
  const acmeSales = await as(principal({ kind: 'admin', tenant_id: 'acme', workspace_id: 'sales' }))
  const a1 = await createCustomer(app, who.acmeAdmin, { name: 'Ada One', email: 'ada.one@acme.test' })
  const a2 = await createCustomer(app, acmeSales, { name: 'Abe Two', email: 'abe.two@acme.test' })
  const g1 = await createCustomer(app, who.globexAdmin, { name: 'Gus Globex', email: 'gus@globex.test' })
  const customersOf = (tenant: string) =>
    svc.db.selectFrom('customers').select('id').where('tenant_id', '=', tenant).execute()

  await t.test('another tenant is told nothing; an agent is refused', async (t) => {
    const foreign = await req('POST', '/api/security/tenants/acme/erasure', who.globexAdmin)
    t.equal(foreign.statusCode, 404)
    t.equal(foreign.json().code, 'IDENTITY_TENANT_NOT_FOUND')
    t.equal((await req('POST', '/api/security/tenants/acme/erasure', who.acmeAgent)).statusCode, 403)
    t.equal((await customersOf('acme')).length, 2, 'nothing erased')
  })

  await t.test("the tenant's administrator erases every customer of the tenant and disables it", async (t) => {
    const r = await req('POST', '/api/security/tenants/acme/erasure', who.acmeAdmin)
    t.equal(r.statusCode, 202, r.body)
    t.match(r.json(), { tenant_id: 'acme', status: 'disabled', started: 2, erasures: { in_progress: 2 } })
    t.same(await customersOf('acme'), [], 'both workspaces emptied of customers')
    t.equal((await customersOf('globex')).length, 1, "another tenant's customers stay")
    for (const c of [a1, a2]) {
      const e = await rec.find(IdentityErasureEvents.requested.type, (d: any) => d.customer_id === c.id)
      t.ok(e, `an erasure event for ${c.id}`)
    }
    const off = await rec.find(IdentityEvents.scopeStatus.type, (d: any) => d.tenant_id === 'acme' && !d.active)
    t.ok(off, 'the tenant is announced disabled: the gateway refuses its tokens')
    t.notOk(
      rec.events.some((e) => e.type === IdentityErasureEvents.requested.type && (e.data as any).customer_id === g1.id),
      "no event for another tenant's customer",
    )
  })

  await t.test('a repeat erases nobody new; the report counts the erasures', async (t) => {
    const again = await req('POST', '/api/security/tenants/acme/erasure', who.platform)
    t.equal(again.statusCode, 202, again.body)
    t.match(again.json(), { started: 0, status: 'disabled', erasures: { in_progress: 2, completed: 0 } })
    const report = await req('GET', '/api/security/tenants/acme/erasure', who.platform)
    t.match(report.json(), { tenant_id: 'acme', status: 'disabled', erasures: { in_progress: 2 } })
    t.equal((await req('GET', '/api/security/tenants/acme/erasure', who.globexAdmin)).statusCode, 404)
  })
})
