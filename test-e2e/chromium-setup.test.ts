// scripts/ensure-chromium.sh, run by `npm test` before the browser tier: Debian's Chromium is installed when
// missing, and a machine where it cannot be says so loudly and fails (the browser tests are never skipped).
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { ROOT } from './harness/console-build.ts'

const script = join(ROOT, 'scripts/ensure-chromium.sh')

function run(env: Record<string, string>) {
  const r = spawnSync('bash', [script], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** A stand-in for apt-get: records its arguments; `install` puts a fake browser at `browser` unless told not to. */
function fakeApt(dir: string, browser: string, behaviour: 'installs' | 'fails' | 'installs nothing') {
  const apt = join(dir, 'apt-get')
  const log = join(dir, 'apt.log')
  writeFileSync(
    apt,
    `#!/usr/bin/env bash
echo "$*" >> ${JSON.stringify(log)}
[ "${behaviour}" = fails ] && [ "$1" = install ] && exit 100
if [ "$1" = install ] && [ "${behaviour}" = installs ]; then
  printf '#!/bin/sh\\necho "Chromium 156.0 built on Debian"\\n' > ${JSON.stringify(browser)}
  chmod +x ${JSON.stringify(browser)}
fi
exit 0
`,
  )
  chmodSync(apt, 0o755)
  return { apt, calls: () => readFileSync(log, 'utf8').trim().split('\n') }
}

function sandbox(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return { dir, browser: join(dir, 'chromium') }
}

t.test('the machine’s Chromium is found and starts', async (t) => {
  const r = run({})
  t.equal(r.code, 0, r.err)
  t.match(r.out, /^chromium: Chromium \d+/m)
})

t.test('a missing browser is installed from Debian’s chromium package', async (t) => {
  const { dir, browser } = sandbox(t)
  const apt = fakeApt(dir, browser, 'installs')
  const r = run({ CHROMIUM_PATH: browser, CHROMIUM_APT: apt.apt })
  t.equal(r.code, 0, r.err)
  t.same(apt.calls(), ['update', 'install -y --no-install-recommends chromium'])
  t.match(r.out, `chromium: Chromium 156.0 built on Debian at ${browser}`)
})

t.test('when it cannot be installed: loud, and a failure', async (t) => {
  for (const behaviour of ['fails', 'installs nothing'] as const) {
    const { dir, browser } = sandbox(t)
    const apt = fakeApt(dir, browser, behaviour)
    const r = run({ CHROMIUM_PATH: browser, CHROMIUM_APT: apt.apt })
    t.equal(r.code, 1, `${behaviour}: exit 1`)
    t.match(r.err, /!!!! CHROMIUM UNAVAILABLE/, behaviour)
    t.match(r.err, /will FAIL, not skip/)
    t.match(r.err, /apt-get install -y chromium/, 'says how to fix it')
  }
})
