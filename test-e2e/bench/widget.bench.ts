// The widget's cost to a customer's site, measured in Debian's Chromium with the CPU throttled ×4 (issue 21):
// a host page on another origin embeds the loader; from navigation to an interactive launcher, from the first click
// to a usable composer (cold: the frame not yet made; warm: made while the page was idle), and the bytes each
// costs as served (gzip/brotli on the wire). Standalone, on the embedded default:
//   bash scripts/toolchain.sh env node test-e2e/bench/widget.bench.ts   (BENCH_WIDGET_RUNS=5)
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from '../browser/harness.ts'
import { login } from '../harness/auth.ts'
import { client } from '../harness/http.ts'
import { startSystem } from '../harness/system.ts'
import { ensureWidgetBuild } from '../harness/widget-build.ts'

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 5)
const TIMEOUT = 60_000

const system = await startSystem('embedded', {
  env: { WIDGET_DIR: process.env.WIDGET_DIR ?? (await ensureWidgetBuild()) },
})
const gateway = new URL(system.url).origin
// an agent online: the widget opens on its composer (with nobody online it offers "leave a message")
const api = client(system.url)
const agent = (await login(api, system.agent.username, system.agent.password)).token
await api.put('/api/agents/me/status', { status: 'online' }, { token: agent })
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>host</title></head><body><main><h1>A shop</h1></main>
<script src="${system.url}/widget.js" data-tenant="${system.tenant_id}" data-workspace="${system.workspace_id}" async></script>
</body></html>`)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** One visit: a fresh context, CPU ×4; bytes of every gateway response (headers + body as transferred). */
async function visit(warm: boolean) {
  const context = await browser.newContext()
  const page: Page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  const bytes = { loader: 0, frame: 0 }
  page.on('requestfinished', async (request) => {
    if (!request.url().startsWith(gateway)) return
    const sizes = await request.sizes().catch(() => undefined)
    if (!sizes) return
    const n = sizes.responseBodySize + sizes.responseHeadersSize
    if (request.url().includes('/widget.js')) bytes.loader += n
    else if (request.url().includes('/widget/')) bytes.frame += n
  })
  await page.addInitScript(() => {
    const g = globalThis as any
    new g.MutationObserver((_: unknown, observer: any) => {
      const button = g.document.querySelector('switchboard-widget')?.shadowRoot?.querySelector('button')
      if (button) {
        g.__launcherAt = g.performance.now()
        observer.disconnect()
      }
    }).observe(g.document, { childList: true, subtree: true })
  })
  await page.goto(host)
  const launcher = page.getByRole('button', { name: 'Open chat' })
  await launcher.waitFor({ timeout: TIMEOUT })
  const launcherMs = await page.evaluate(() => (globalThis as any).__launcherAt as number)
  // warm: the frame made while the page was idle has loaded; cold: click at once
  if (warm) await page.locator('switchboard-widget iframe').waitFor({ state: 'attached', timeout: TIMEOUT })
  if (warm)
    await page.frameLocator('switchboard-widget iframe').locator('#root > *').first().waitFor({ state: 'attached' })
  const clicked = Date.now()
  await launcher.click()
  await page
    .frameLocator('switchboard-widget iframe')
    .getByRole('textbox', { name: 'Message', exact: true })
    .waitFor({ timeout: TIMEOUT })
  const composerMs = Date.now() - clicked
  await context.close()
  return { launcherMs, composerMs, ...bytes }
}

try {
  await visit(false) // the gateway's and the browser's first time: not counted
  const cold = []
  const warm = []
  for (let i = 0; i < RUNS; i++) {
    cold.push(await visit(false))
    warm.push(await visit(true))
  }
  const summary = (runs: Awaited<ReturnType<typeof visit>>[]) => ({
    launcher_interactive_ms_p50: Math.round(median(runs.map((r) => r.launcherMs))),
    click_to_composer_ms_p50: median(runs.map((r) => r.composerMs)),
    loader_bytes: median(runs.map((r) => r.loader)),
    frame_bytes: median(runs.map((r) => r.frame)),
  })
  console.log(JSON.stringify({ cpu_throttle: 4, runs: RUNS, cold: summary(cold), warm: summary(warm) }, null, 2))
} finally {
  await browser.close()
  server.close()
  await system.close()
}
