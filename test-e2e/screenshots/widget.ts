// The README's screenshots of the chat widget: the embedded system (its demo website at /demo, WIDGET_DIR when set),
// the demo agent online, a customer on the demo shop opening the widget and writing, the agent's reply through the
// API; the shop with the widget open at 1280×800 and on a 390×844 phone, as PNGs in docs/screenshots/.
// Run by scripts/widget-screenshots.ts.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, WAIT_MS } from '../browser/harness.ts'
import { login } from '../harness/auth.ts'
import { conversationsKit, must, type Scope } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { startSystem } from '../harness/system.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const OUT = process.env.SCREENSHOTS_DIR ?? `${ROOT}docs/screenshots`

// the gateway serves WIDGET_DIR when set; else the workspace's builds, made current first (turbo: cached)
if (!process.env.WIDGET_DIR) execFileSync('bash', ['scripts/build-console.sh'], { cwd: ROOT, stdio: 'inherit' })

const system = await startSystem('embedded', {
  env: process.env.WIDGET_DIR ? { WIDGET_DIR: process.env.WIDGET_DIR } : {},
})
let browser: Browser | undefined
try {
  const kit = await conversationsKit(system)
  const scope: Scope = { tenant_id: system.tenant_id, workspace_id: system.workspace_id }
  const { api } = kit
  const agent = (await login(api, system.agent.username, system.agent.password)).token
  const me = must(await api.get('/api/v1/auth/me', { token: agent }), 200, 'me')
  must(await api.put('/api/agents/me/status', { status: 'online' }, { token: agent }), 200, 'agent online')

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  mkdirSync(OUT, { recursive: true })

  const chat = (page: Page) => page.frameLocator('switchboard-widget iframe')
  async function visit(viewport: { width: number; height: number }, mobile: boolean) {
    const context = await browser!.newContext({ viewport, isMobile: mobile, hasTouch: mobile, locale: 'en-US' })
    const page = await context.newPage()
    await page.goto(`${system.url}/demo`)
    await page.getByRole('button', { name: 'Open chat' }).click()
    await chat(page).getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: WAIT_MS })
    return page
  }

  const desktop = await visit({ width: 1280, height: 800 }, false)
  const text = 'Hi! My order 5521 has not arrived yet.'
  await chat(desktop).getByRole('textbox', { name: 'Message', exact: true }).fill(text)
  await chat(desktop).getByRole('button', { name: 'Send', exact: true }).click()
  const id = await until('the conversation', async () => {
    const list = must(await api.get('/api/omni/sessions', kit.svc(scope)), 200, 'sessions')
    return ((list.data ?? list.items ?? [])[0]?.id as string | undefined) ?? undefined
  })
  const agentId = me.id as string
  await api.post(`/api/omni/sessions/${id}/assign`, { agent_id: agentId }, kit.svc(scope))
  const reply = 'Sorry about that! It left our roastery on Monday — here is the tracking link.'
  must(await api.post(`/api/omni/sessions/${id}/messages`, { content: reply }, { token: agent }), 201, 'reply')
  await chat(desktop).getByText(reply).waitFor({ timeout: WAIT_MS })
  await desktop.screenshot({ path: `${OUT}/widget-demo.png` })

  const phone = await visit({ width: 390, height: 844 }, true)
  await phone.screenshot({ path: `${OUT}/widget-phone.png` })
  console.log(`widget screenshots in ${OUT}`)
} finally {
  await browser?.close()
  await system.close()
}
