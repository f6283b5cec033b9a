import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { waitFor } from '@switchboard/testing'
import t from 'tap'
import { TEST_ENV } from './helpers/app.ts'

const mainPath = fileURLToPath(new URL('../src/main.ts', import.meta.url))

t.test('main.ts starts from the environment alone and stops on SIGTERM', async (t) => {
  const child = spawn(process.execPath, [mainPath], {
    env: {
      PATH: process.env.PATH,
      ...TEST_ENV,
      LOG_LEVEL: 'info',
      PORT: '0',
      DB_DRIVER: 'sqlite',
      SQLITE_FILE: ':memory:',
      CACHE_DRIVER: 'memory',
      BUS_DRIVER: 'memory',
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'admin-password-1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (d) => {
    err += d
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in time\n${out}\n${err}`)), 20_000)
    child.stdout.on('data', (d) => {
      out += d
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on('exit', (code) => reject(new Error(`exited ${code}\n${out}\n${err}`)))
  })
  // live at once; the seed is part of its start, done when it is ready
  await waitFor(async () => (await fetch(`${url}/ready`)).status === 200, 20_000)
  // the seed's log lines may reach the pipe a moment after /ready answers (seen once in a CI run)
  await waitFor(() => /demo account agent: generated password/.test(out), 5_000).catch(() => undefined)
  t.match(out, /demo tenant seeded/)
  t.match(out, /demo account agent: generated password [A-Za-z0-9_-]{16}/)
  t.notMatch(out, /admin-password-1/, 'a given password is not logged')
  const health = await fetch(`${url}/health`)
  t.equal(health.status, 200)
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
  })
  t.equal(login.status, 200)
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  t.equal(await exit, 0)
})
