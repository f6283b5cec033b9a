import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { FOLLOW_PARENT, namespaced } from '../src/fleet.ts'
import { portRange } from '../src/ports.ts'

t.test('a namespace isolates every engine; without one the plain per-service schema is used', async (t) => {
  t.same(namespaced({}, 'identity', 'e2e_abc'), {
    DB_SCHEMA: 'e2e_abc_identity',
    CACHE_PREFIX: 'e2e_abc:',
    NATS_PREFIX: 'e2e_abc',
  })
  t.same(namespaced({}, 'tickets', undefined), { DB_SCHEMA: 'tickets' })
  t.same(namespaced({ DB_SCHEMA_PREFIX: 'staging_' }, 'audit', undefined), { DB_SCHEMA: 'staging_audit' })
})

t.test('ports: consecutive from a base, or distinct free ones for 0', async (t) => {
  t.same(await portRange(8101, 3), [8101, 8102, 8103])
  const free = await portRange(0, 4)
  t.equal(new Set(free).size, 4)
  for (const p of free) t.ok(p > 0 && p < 65536)
})

t.test('a spawned unit stops (as on SIGTERM) when its runner is killed outright', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-follow-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const marker = join(dir, 'unit-stopped')
  // the unit: lives until told to stop, and records that it was stopped by SIGTERM
  const unit = `process.on('SIGTERM', () => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'SIGTERM'); process.exit(0) }); setInterval(() => {}, 1000)`
  // the runner: spawns the unit the way startFleet does, prints its pid, then waits to be killed
  const runner = `
    const { spawn } = require('node:child_process')
    const child = spawn(process.execPath, [...${JSON.stringify(FOLLOW_PARENT)}, '-e', ${JSON.stringify(unit)}], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.on('spawn', () => console.log(child.pid))
    setInterval(() => {}, 1000)`
  const parent = spawn(process.execPath, ['-e', runner], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = (await once(parent.stdout!, 'data')) as [Buffer]
  const unitPid = Number(line.toString().trim())
  t.ok(unitPid > 0, 'the unit runs')
  await new Promise((r) => setTimeout(r, 300)) // let the unit load its preload and handlers
  parent.kill('SIGKILL')
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  for (let i = 0; i < 100 && alive(unitPid); i++) await new Promise((r) => setTimeout(r, 50))
  t.notOk(alive(unitPid), 'the unit is gone within 5 s of its runner')
  t.equal(readFileSync(marker, 'utf8'), 'SIGTERM', 'and it went through its graceful close')
})
