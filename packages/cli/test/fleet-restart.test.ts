// `fleet.restart(name)` (the chaos bench's): a replica killed -9 is started again on its port with its environment,
// and answers ready there; the gateway too (its environment is not the services'). Refused for a replica still
// running and for a name the fleet does not have.
import { once } from 'node:events'
import { createRootLogger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { startFleet } from '../src/fleet.ts'
import { dropNamespace } from '../src/namespace.ts'

const engines = engineUrls()

t.test('a killed replica and a killed gateway start again, ready on their own ports', async (t) => {
  const namespace = uniqueId('frs')
  t.teardown(() => dropNamespace(namespace, engines))
  const fleet = await startFleet({
    services: ['identity'],
    seed: false,
    port: 0,
    servicePort: 0,
    namespace,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: engines.databaseUrl,
      REDIS_URL: engines.redisUrl,
      NATS_URL: engines.natsUrl,
      JWT_SECRET: 'fleet-restart-test-jwt-secret-0123456789abcdef',
      INTERNAL_SECRET: 'fleet-restart-test-internal-secret-0123456789',
      LOG_LEVEL: 'warn',
    },
    output: () => {},
    logger: createRootLogger({ level: 'warn' }),
  })
  t.teardown(() => fleet.close())

  await t.rejects(fleet.restart('identity.1'), /still running/, 'a running replica is not started twice')
  await t.rejects(fleet.restart('identity.9'), /no unit identity\.9/, 'nor one the fleet does not have')

  for (const name of ['identity.1', 'gateway.1']) {
    const before = fleet.children.find((c) => c.name === name)!
    const exited = once(before.process, 'exit')
    before.process.kill('SIGKILL')
    await exited
    await t.rejects(fetch(`${before.url}/health`), `${name} is down`)
    const after = await fleet.restart(name)
    t.not(after.process.pid, before.process.pid, `${name}: a new process`)
    t.equal(after.url, before.url, `${name}: on its own port`)
    t.equal(
      fleet.children.find((c) => c.name === name),
      after,
      `${name}: the fleet's entry is the new process`,
    )
    t.equal(fleet.children.filter((c) => c.name === name).length, 1, `${name}: listed once`)
    t.equal((await fetch(`${after.url}/ready`)).status, 200, `${name} is ready`)
  }
  // the restarted gateway has its upstreams: a login reaches identity through it (refused: no such user)
  const login = await fetch(`${fleet.gatewayUrls[0]}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'nobody', password: 'not-a-password-0123' }),
  })
  t.equal(login.status, 401, 'the restarted gateway routes to identity')
})
