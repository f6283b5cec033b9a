import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { seedDemo } from '../src/commands/seed.commands.ts'
import { claimsOf, identityApp } from './helpers/app.ts'

inEachStorageMode(t, 'seedDemo', async (t, mode) => {
  const { app, svc } = await identityApp(t, mode)
  const seeded = await seedDemo(svc, { adminUsername: 'boss', adminPassword: 'boss-password-1' })
  t.match(seeded, {
    tenant_id: 'demo',
    workspace_id: 'main',
    admin: { username: 'boss', password: 'boss-password-1', created: true },
    agent: { username: 'agent', created: true },
  })
  t.match(seeded.agent.password, /^[A-Za-z0-9_-]{16}$/, 'generated when not given')

  const login = (username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } })
  const admin = await login('boss', 'boss-password-1')
  t.equal(admin.statusCode, 200)
  t.match(claimsOf(admin.json().token), {
    roles: ['admin'],
    tenant_id: 'demo',
    workspace_id: 'main',
    permissions: ['*'],
  })
  const agent = await login('agent', seeded.agent.password as string)
  t.equal(agent.statusCode, 200)
  const agentClaims = claimsOf(agent.json().token)
  t.match(agentClaims, { roles: ['agent'], tenant_id: 'demo', workspace_id: 'main' })
  t.ok(agentClaims.permissions.includes('tickets.write'))
  t.notOk(agentClaims.principal_kind, 'kind follows from the role')

  // Idempotent: nothing duplicated, existing passwords kept unless one is given.
  const again = await seedDemo(svc, { adminUsername: 'boss', adminPassword: 'boss-password-2' })
  t.match(again, {
    admin: { created: false, password: 'boss-password-2' },
    agent: { created: false, password: null },
  })
  t.equal((await login('boss', 'boss-password-2')).statusCode, 200, 'a given password is made current')
  t.equal((await login('agent', seeded.agent.password as string)).statusCode, 200)
  const counts = await Promise.all(
    (['users', 'agents'] as const).map(async (table) =>
      Number(
        (
          await svc.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  )
  t.same(counts, [2, 2])

  // After seeding, self-registration yields customers.
  const reg = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { username: 'newbie', email: 'newbie@example.com', password: 'newbie-password' },
  })
  t.equal(reg.json().user.role, 'customer')
})
