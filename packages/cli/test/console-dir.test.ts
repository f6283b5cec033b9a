// Both runners hand the gateway the console's build directory (option consoleDir or CONSOLE_DIR), made absolute
// from where the runner started: the fleet's gateways run in the repository root, not in the caller's directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createRootLogger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { startEmbedded } from '../src/embedded.ts'
import { startFleet } from '../src/fleet.ts'
import { dropNamespace } from '../src/namespace.ts'

const logger = createRootLogger({ level: 'silent' })
const engines = engineUrls()
const secrets = {
  JWT_SECRET: 'console-dir-test-jwt-secret-0123456789abcdef',
  INTERNAL_SECRET: 'console-dir-test-internal-secret-0123456789',
}

function fakeBuild(t: Test, marker: string) {
  const base = mkdtempSync(join(tmpdir(), 'console-dir-'))
  t.teardown(() => rmSync(base, { recursive: true, force: true }))
  const dir = join(base, 'dist')
  mkdirSync(dir)
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>${marker}</title>`)
  // given relative to this process's directory, as a user would type it
  return { base, relativeDir: relative(process.cwd(), dir) }
}

/**
 * The namespace's schemas, keys and streams dropped after the fleet closed. Its Redis SCAN walks the whole shared
 * keyspace, whose commands can time out while other suites load the machine: cleanup is tried again then.
 */
async function dropQuietly(namespace: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dropNamespace(namespace, engines)
    } catch (err) {
      if (attempt === 3) throw err
    }
  }
}

const home = (url: string) => fetch(`${url}/`, { headers: { accept: 'text/html' } }).then((r) => r.text())

t.test('embedded: consoleDir (relative) is the gateway’s CONSOLE_DIR', async (t) => {
  const { base, relativeDir } = fakeBuild(t, 'embedded-build')
  const system = await startEmbedded({
    port: 0,
    dataDir: join(base, 'data'),
    seed: false,
    services: ['identity'],
    env: { ...secrets, ARGON2_MEMORY_COST_KIB: '1024', ARGON2_TIME_COST: '1' },
    logger,
    consoleDir: relativeDir,
  })
  t.teardown(() => system.close())
  t.match(await home(system.url), /embedded-build/)
})

t.test('fleet: CONSOLE_DIR (relative) reaches every gateway as an absolute path', async (t) => {
  const { base } = fakeBuild(t, 'fleet-build')
  // started from elsewhere than the repository root, where the gateways run
  const cwd = process.cwd()
  process.chdir(base)
  t.teardown(() => process.chdir(cwd))
  const relativeDir = 'dist'
  const namespace = uniqueId('fcd')
  let fleet: Awaited<ReturnType<typeof startFleet>> | undefined
  // the fleet first, then what it left in the engines
  t.teardown(async () => {
    await fleet?.close()
    await dropQuietly(namespace)
  })
  fleet = await startFleet({
    services: ['identity'],
    gatewayReplicas: 1,
    seed: false,
    port: 0,
    servicePort: 0,
    namespace,
    dataDir: join(base, 'data'),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: engines.databaseUrl,
      REDIS_URL: engines.redisUrl,
      NATS_URL: engines.natsUrl,
      ...secrets,
      ARGON2_MEMORY_COST_KIB: '1024',
      ARGON2_TIME_COST: '1',
      LOG_LEVEL: 'warn',
      CONSOLE_DIR: relativeDir,
    },
    output: () => {},
    logger,
  })
  t.match(await home(fleet.gatewayUrls[0]!), /fleet-build/)
})
