import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from '@switchboard/cli'

const run = promisify(execFile)

/** Runs the admin CLI as its own process, the way an operator would (`node packages/cli/src/bin.ts …`). */
export async function switchboard(args: string[], env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [join(REPO_ROOT, 'packages/cli/src/bin.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    timeout: 60_000,
  })
}
