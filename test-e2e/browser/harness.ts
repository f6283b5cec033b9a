// The browser tests' harness: the embedded system serving the built console, one Debian Chromium per test file,
// a fresh context per test, logging in through the login page, and axe-core on a page. Every wait is on a role, a
// name or a text — no sleeps, no retries.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import type { Test } from 'tap'
import { type Mode, type System, type SystemOptions, startSystem } from '../harness/system.ts'

/** A noisy two-core machine: what is coming shows well within this. */
export const WAIT_MS = 20_000

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const CONSOLE = fileURLToPath(new URL('../../apps/console/', import.meta.url))
const DIST = `${CONSOLE}dist`

/**
 * The console must be built for the gateway to serve it (`npm test` builds it first through turbo). A run
 * without a build builds it here, into a directory of its own renamed into place, so two files starting at once
 * never see a half-written build.
 */
export function ensureConsoleBuilt(): void {
  if (existsSync(`${DIST}/index.html`)) return
  const out = `${CONSOLE}dist-${process.pid}`
  execFileSync('npx', ['vite', 'build', '--outDir', out, '--logLevel', 'warn'], { cwd: CONSOLE, stdio: 'inherit' })
  try {
    renameSync(out, DIST)
  } catch {
    // another file's build got there first
    rmSync(out, { recursive: true, force: true })
  }
}

/** The system (embedded by default) with the console served at `/`, closed when the file's tests end. */
export async function consoleSystem(t: Test, mode: Mode = 'embedded', opts: SystemOptions = {}): Promise<System> {
  ensureConsoleBuilt()
  const system = await startSystem(mode, opts)
  t.teardown(() => system.close())
  return system
}

/** One Chromium for the file (closed at its end). */
export async function launchBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  t.teardown(() => browser.close())
  return browser
}

/** A fresh context (its own cookies and storage) and page on the system, closed when test `t` ends. */
export async function newPage(t: Test, browser: Browser, system: Pick<System, 'url'>): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ baseURL: system.url })
  t.teardown(() => context.close())
  return context.newPage()
}

/**
 * Lets a test cut the page's WebSockets as a network drop would: every socket the page opens is recorded, and
 * while cut, new ones fail to connect (they are pointed at a closed port). Installed before the page's own script
 * runs (an init script, to which the page's CSP does not apply).
 */
export async function instrumentSockets(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as any
    const Native = g.WebSocket
    g.__sockets = [] as any[]
    g.__socketsCut = false
    g.WebSocket = class extends Native {
      constructor(url: string, protocols?: string | string[]) {
        super(g.__socketsCut ? 'ws://127.0.0.1:9/' : url, protocols)
        g.__sockets.push(this)
      }
    }
  })
}

/** Closes the page's open sockets and keeps new ones from connecting until `restoreSockets`. */
export async function cutSockets(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as any
    g.__socketsCut = true
    for (const socket of g.__sockets) socket.close()
  })
}

/** Lets sockets connect again and says so as the browser does when the network comes back (`online`). */
export async function restoreSockets(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as any
    g.__socketsCut = false
    g.dispatchEvent(new Event('online'))
  })
}

export interface Credentials {
  username: string
  password: string
}

/** The login page's form, filled and sent the way a user does (by label and button name). */
export async function submitLogin(page: Page, who: Credentials): Promise<void> {
  await page.getByLabel('Username').fill(who.username)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

/** Opens `path` (default the inbox), logs in as `who` and waits for the shell with its hub socket connected. */
export async function loginAs(page: Page, who: Credentials, path = '/'): Promise<void> {
  await page.goto(path)
  await submitLogin(page, who)
  await shellReady(page)
}

/** The signed-in shell: the "Log out" button and the hub connected. */
export async function shellReady(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).waitFor({ timeout: WAIT_MS })
  await page.getByRole('status', { name: 'Connection' }).filter({ hasText: 'Connected' }).waitFor({ timeout: WAIT_MS })
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core on the page as it is now: the serious and critical violations, each as `rule: targets`. The source is
 * evaluated through the DevTools protocol, to which the page's CSP (no inline script) does not apply.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })
    return result.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`)
  })
}

/** Fails `t` on any serious or critical axe violation of `page`, named by `where`. */
export async function checkAxe(t: Test, page: Page, where: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${where}`)
}
