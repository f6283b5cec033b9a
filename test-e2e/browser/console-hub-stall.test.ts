// A connection attempt that never completes is given up and retried by the console on its own. While the test
// "stalls" the network, every socket the page opens is a stand-in whose handshake never ends (no open, no error, no
// close — what a black-holed address or a hung proxy gives). Before CONNECT_TIMEOUT_MS the console waited on such an
// attempt until an `online` event or a tab switch; now it gives the attempt up, retries with its backoff, and is
// connected again once sockets can connect — with no `online` event and no reload.
import t from 'tap'
import { consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const CONNECT_TIMEOUT_MS = 10_000

t.test('a stalled connection attempt is retried without an online event', async (t) => {
  const page = await newPage(t, browser, system)
  await page.addInitScript(() => {
    const g = globalThis as any
    const Native = g.WebSocket
    g.__stalled = false
    g.__sockets = [] as any[]
    g.__hung = 0
    /** A socket whose handshake never ends: it stays CONNECTING until closed, and then says nothing. */
    class Hung extends EventTarget {
      readyState = 0
      url: string
      protocol = ''
      onopen = null
      onmessage = null
      onclose = null
      onerror = null
      constructor(url: string) {
        super()
        this.url = url
        g.__hung++
      }
      send() {
        throw new Error('not open')
      }
      close() {
        this.readyState = 3
      }
    }
    g.WebSocket = class extends Native {
      // biome-ignore lint/correctness/noUnreachableSuper: a stalled attempt returns the stand-in, never a socket
      constructor(url: string, protocols?: string | string[]) {
        // a stalled attempt gets the stand-in instead of a socket
        // biome-ignore lint/correctness/noConstructorReturn: on purpose, see above
        if (g.__stalled) return new Hung(url) as any
        super(url, protocols)
        g.__sockets.push(this)
      }
    }
  })
  page.on('pageerror', (err) => t.comment(`page error: ${err.message}`))
  await loginAs(page, system.agent)
  const status = page.getByRole('status', { name: 'Connection' })
  await page.evaluate(() => {
    const g = globalThis as any
    g.__stalled = true
    for (const socket of g.__sockets) socket.close()
  })
  await status.filter({ hasText: 'Reconnecting' }).waitFor({ timeout: WAIT_MS })
  await page.waitForFunction(() => (globalThis as any).__hung > 0, undefined, { timeout: WAIT_MS })
  t.pass('reconnecting, its attempt hanging')
  // sockets connect again, but nothing tells the page so: no `online`, no visibility change
  await page.evaluate(() => {
    ;(globalThis as any).__stalled = false
  })
  const began = Date.now()
  await status.filter({ hasText: /^Connected$/ }).waitFor({ timeout: CONNECT_TIMEOUT_MS + WAIT_MS })
  t.pass(`connected again on its own after ${Date.now() - began} ms`)
})
