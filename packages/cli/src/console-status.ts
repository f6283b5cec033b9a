import { resolve } from 'node:path'
import type { ConsoleStatus } from './banner.ts'

/**
 * CONSOLE_DIR for the gateway, made absolute from where the runner was started (a fleet's gateways run in the
 * repository root, the embedded one in this process). Unset: the gateway's default, the repository's build.
 */
export function consoleDirEnv(dir: string | undefined): NodeJS.ProcessEnv {
  return dir ? { CONSOLE_DIR: resolve(dir) } : {}
}

/**
 * Asks the gateway what it serves at `/`: 200 is the console's build, 503 means none in its CONSOLE_DIR (the
 * gateway says how to build it). Asked over HTTP rather than by looking at the directory, so the answer is the
 * gateway's own, whatever CONSOLE_DIR it was given.
 */
export async function consoleStatus(url: string): Promise<ConsoleStatus> {
  try {
    const res = await fetch(`${url}/`, { method: 'HEAD', signal: AbortSignal.timeout(3000) })
    if (res.status === 200) return 'ready'
    if (res.status === 503) return 'not built'
    return 'unknown'
  } catch {
    return 'unknown'
  }
}

/** Whether the gateway serves the widget's demo website (`/demo`, DEMO_SITE), asked like consoleStatus. */
export async function demoServed(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/demo`, { method: 'HEAD', signal: AbortSignal.timeout(3000) })
    return res.status === 200
  } catch {
    return false
  }
}
