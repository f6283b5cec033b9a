import t, { type Test } from 'tap'
import { MODES, type Mode, type System, type SystemOptions, startSystem } from './system.ts'

/** E2E_MODES=embedded (or fleet) narrows a local run; `npm test` runs both. */
export function selectedModes(env: NodeJS.ProcessEnv = process.env): Mode[] {
  const wanted = (env.E2E_MODES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  return wanted.length ? MODES.filter((m) => wanted.includes(m)) : [...MODES]
}

/**
 * Runs one suite against each run mode: the system is started once per mode for the whole suite and
 * stopped (and its data dropped) afterwards. Subtests inside share it, in order.
 */
export function inEachMode(name: string, opts: SystemOptions, suite: (t: Test, system: System) => Promise<void>) {
  for (const mode of selectedModes()) {
    t.test(`${name} [${mode}]`, async (t) => {
      const started = Date.now()
      const system = await startSystem(mode, opts)
      t.comment(`${mode} system ready in ${Date.now() - started} ms at ${system.url}`)
      t.teardown(() => system.close())
      await suite(t, system)
    })
  }
}
