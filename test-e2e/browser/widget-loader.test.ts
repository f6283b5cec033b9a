// The widget's loader (apps/widget/src/loader) in a real browser (Debian's Chromium) against the embedded default:
// host pages served by this test on ANOTHER origin (their own node:http server on 127.0.0.1, another port) embed the
// one tag. The launcher is a button named "Open chat" whose box is the whole closed widget (nothing invisible eats
// the page's clicks), a click opens the gateway's frame above it, hostile page CSS and an overlay don't hide it, a
// phone-sized viewport gets the widget full screen following the visual viewport, messages from anything but its
// frame are ignored, a site the scope does not list gets no frame (frame-ancestors), and axe passes on the host page.
// Every wait is on a role, a name, a frame, an event or an API answer: no sleeps, no retries.
import type { BrowserContextOptions, Frame, Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { ensureWidgetBuild } from '../harness/widget-build.ts'
import { checkAxe, consoleSystem, launchBrowser, WAIT_MS } from './harness.ts'
import { HOSTILE, hostPage, site } from './widget-host.ts'

// seven scenarios with a browser each on a two-core machine: more than tap's default two minutes when loaded
t.setTimeout(300_000)

const system = await consoleSystem(t, 'embedded', {
  env: { WIDGET_DIR: process.env.WIDGET_DIR ?? (await ensureWidgetBuild()) },
})
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)
const gateway = new URL(system.url).origin

const host = await site(
  t,
  (path, q) => {
    if (path === '/') return hostPage(system)
    if (path === '/strict') return hostPage(system)
    if (path === '/hostile') return hostPage(system, { head: HOSTILE })
    if (path === '/left')
      return hostPage(system, {
        attrs: 'data-position="bottom-left" data-locale="zh-CN" data-z-index="1000" data-color="#0a7d5a"',
      })
    if (path === '/scope')
      return hostPage(system, { tenant: q.get('tenant') ?? '', workspace: q.get('workspace') ?? '' })
    return undefined
  },
  {
    // a site with a strict policy: the gateway's script and frame allowed, no inline style, no string HTML
    '/strict': `default-src 'none'; script-src ${gateway}; frame-src ${gateway}; style-src 'none'; require-trusted-types-for 'script'`,
  },
)
const hostOrigin = new URL(host).origin
// a third site, for frames that are not the widget's
const other = await site(t, (path) => (path === '/' ? '<!doctype html><title>other</title>' : undefined))

async function open(t: Test, path: string, context: BrowserContextOptions = {}): Promise<Page> {
  const ctx = await browser.newContext(context)
  t.teardown(() => ctx.close())
  const page = await ctx.newPage()
  await page.goto(`${host}${path}`)
  return page
}

const launcher = (page: Page, name = 'Open chat') => page.getByRole('button', { name })
const chatFrame = (page: Page) => page.locator('switchboard-widget iframe')

/** The widget's frame once it has loaded the gateway's page (made when the page is idle, or on the first click). */
async function loadedFrame(page: Page): Promise<Frame> {
  const handle = await chatFrame(page).elementHandle({ timeout: WAIT_MS })
  const frame = await handle!.contentFrame()
  await frame!.waitForURL((url) => url.origin === gateway, { timeout: WAIT_MS })
  await frame!.waitForLoadState('load')
  return frame!
}

/** What `document.elementFromPoint` hits at (x, y): the widget's host element, or the page's own element. */
const hit = (page: Page, x: number, y: number) =>
  page.evaluate(([x, y]) => (globalThis as any).document.elementFromPoint(x, y)?.tagName.toLowerCase() ?? null, [x, y])

t.test('the launcher: a button named "Open chat"; closed, the widget is exactly its box; axe', async (t) => {
  const page = await open(t, '/')
  await launcher(page).waitFor({ timeout: WAIT_MS })
  // the frame is made while the page is idle, hidden until opened
  const frame = await loadedFrame(page)
  t.ok(frame.url().startsWith(`${system.url}/widget/?`), 'the idle frame is the gateway’s')
  t.equal(await chatFrame(page).isVisible(), false, 'and not shown while closed')

  const box = (await launcher(page).boundingBox())!
  const viewport = page.viewportSize()!
  t.same(
    {
      w: box.width,
      h: box.height,
      right: viewport.width - box.x - box.width,
      bottom: viewport.height - box.y - box.height,
    },
    { w: 56, h: 56, right: 20, bottom: 20 },
    'a 56 px launcher 20 px from the bottom-right corner',
  )
  t.same(await page.locator('switchboard-widget').boundingBox(), box, 'the widget’s element is the launcher’s box')
  t.equal(await hit(page, box.x + 28, box.y + 28), 'switchboard-widget', 'the launcher takes clicks')
  for (const [x, y, where] of [
    [box.x - 1, box.y + 28, 'just left of it'],
    [box.x + 28, box.y - 1, 'just above it'],
    [box.x + 28, box.y - 300, 'where the panel opens'],
    [box.x - 300, box.y + 28, 'beside it'],
  ] as const)
    t.not(await hit(page, x, y), 'switchboard-widget', `${where}: the host page gets the click`)

  await checkAxe(t, page, 'the host page with the launcher')
})

t.test('a click opens the gateway’s frame above the launcher; the frame’s close returns focus', async (t) => {
  const page = await open(t, '/')
  const frame = await loadedFrame(page)
  await frame.evaluate(() => {
    const w = globalThis as any
    w.got = []
    w.addEventListener('message', (e: any) => w.got.push([e.origin, e.data]))
  })
  await launcher(page).click()
  await launcher(page, 'Close chat').waitFor({ timeout: WAIT_MS })
  t.equal(await launcher(page, 'Close chat').getAttribute('aria-expanded'), 'true')
  await chatFrame(page).waitFor({ state: 'visible', timeout: WAIT_MS })

  t.equal(await chatFrame(page).getAttribute('title'), 'Chat', 'the frame is titled')
  const src = new URL((await chatFrame(page).getAttribute('src'))!)
  t.equal(src.origin + src.pathname, `${system.url}/widget/`, 'served by the gateway')
  t.same(Object.fromEntries(src.searchParams), {
    tenant_id: system.tenant_id,
    workspace_id: system.workspace_id,
    locale: 'en',
    embed_origin: hostOrigin,
  })
  const panel = (await chatFrame(page).boundingBox())!
  const button = (await launcher(page, 'Close chat').boundingBox())!
  t.same(
    { w: panel.width, h: panel.height, right: panel.x + panel.width, gap: button.y - (panel.y + panel.height) },
    { w: 380, h: 600, right: button.x + button.width, gap: 16 },
    'a 380×600 panel over the launcher, aligned to its right edge',
  )
  await frame.waitForFunction(
    (origin) => (globalThis as any).got.some(([o, d]: [string, any]) => o === origin && d?.type === 'switchboard:open'),
    hostOrigin,
    { timeout: WAIT_MS },
  )
  t.pass('the frame was told, from the host page’s origin')

  // the frame's own close button says so to the host page's origin
  await frame.evaluate(
    (origin) => (globalThis as any).parent.postMessage({ type: 'switchboard:close' }, origin),
    hostOrigin,
  )
  await launcher(page).waitFor({ timeout: WAIT_MS })
  t.equal(await chatFrame(page).isVisible(), false, 'closed')
  t.equal(
    await page.evaluate(
      () => (globalThis as any).document.querySelector('switchboard-widget')?.shadowRoot?.activeElement?.tagName,
    ),
    'BUTTON',
    'focus is back on the launcher',
  )
  await launcher(page).click()
  await chatFrame(page).waitFor({ state: 'visible', timeout: WAIT_MS })
  await checkAxe(t, page, 'the host page with the widget open')
})

t.test('unread count from its frame only: the page itself and other frames are not listened to', async (t) => {
  const page = await open(t, '/')
  const frame = await loadedFrame(page)
  await launcher(page).waitFor({ timeout: WAIT_MS })
  // every name the launcher gets, from now on
  await page.evaluate(() => {
    const w = globalThis as any
    w.names = []
    const button = (globalThis as any).document
      .querySelector('switchboard-widget')!
      .shadowRoot!.querySelector('button')!
    new w.MutationObserver(() => w.names.push(button.getAttribute('aria-label')!)).observe(button, { attributes: true })
  })
  // two frames that are not the widget's: another site, and another window on the gateway's own origin
  await page.evaluate(
    ([a, b]) =>
      Promise.all(
        [a, b].map(
          (src) =>
            new Promise((resolve) => {
              const d = (globalThis as any).document
              const f = d.createElement('iframe')
              f.title = 'other'
              f.src = src!
              f.onload = resolve
              d.body.append(f)
            }),
        ),
      ),
    [`${other}/`, `${system.url}/widget/?tenant_id=${system.tenant_id}&workspace_id=${system.workspace_id}`],
  )
  const stranger = page.frames().find((f) => f.url().startsWith(other))!
  const twin = page.frames().find((f) => f !== frame && f.url().startsWith(`${system.url}/widget/`))!
  t.ok(stranger && twin, 'two other frames')
  await page.evaluate(() => (globalThis as any).postMessage({ type: 'switchboard:unread', count: 5 }, '*'))
  await stranger.evaluate(() => (globalThis as any).parent.postMessage({ type: 'switchboard:unread', count: 6 }, '*'))
  await twin.evaluate(
    (o) => (globalThis as any).parent.postMessage({ type: 'switchboard:unread', count: 7 }, o),
    hostOrigin,
  )
  await stranger.evaluate(() =>
    (globalThis as any).parent.postMessage({ type: 'switchboard:resize', mode: 'open' }, '*'),
  )
  // then the widget's own frame: processed after those, so by the time it shows they were ignored
  await frame.evaluate(
    (o) => (globalThis as any).parent.postMessage({ type: 'switchboard:unread', count: 3 }, o),
    hostOrigin,
  )
  await launcher(page, 'Open chat, 3 unread').waitFor({ timeout: WAIT_MS })
  t.equal(
    await page.evaluate(
      () =>
        (globalThis as any).document.querySelector('switchboard-widget')!.shadowRoot!.querySelector('b')!.textContent,
    ),
    '3',
    'the badge',
  )
  const names: string[] = await page.evaluate(() => (globalThis as any).names)
  t.notOk(
    names.some((n: string) => /[567] unread/.test(n)),
    `no count from the page or another frame (${[...new Set(names)].join(' | ')})`,
  )
  t.equal(await chatFrame(page).isVisible(), false, 'and no other frame opened it')

  await launcher(page).click()
  await launcher(page, 'Close chat').waitFor({ timeout: WAIT_MS })
  await launcher(page, 'Close chat').click()
  t.equal(await launcher(page, 'Open chat, 3 unread').count(), 0, 'opening clears the badge')
  await launcher(page, 'Open chat').waitFor({ timeout: WAIT_MS })
})

t.test('hostile page CSS and a top z-index overlay do not hide or cover the launcher', async (t) => {
  const page = await open(t, '/hostile')
  await launcher(page).waitFor({ state: 'visible', timeout: WAIT_MS })
  t.equal(await page.locator('#content').isVisible(), false, 'the page’s own content is hidden by its CSS')
  const box = (await launcher(page).boundingBox())!
  t.same([box.width, box.height], [56, 56], 'full size')
  t.equal(await hit(page, box.x + 28, box.y + 28), 'switchboard-widget', 'on top of the overlay')
  t.not(await hit(page, box.x - 1, box.y + 28), 'switchboard-widget', 'and no bigger')
  await launcher(page).click() // Playwright clicks only what receives the pointer at that point
  await chatFrame(page).waitFor({ state: 'visible', timeout: WAIT_MS })
  const panel = (await chatFrame(page).boundingBox())!
  t.same([panel.width, panel.height], [380, 600], 'the panel opens at full size')
  t.equal(await hit(page, panel.x + 190, panel.y + 300), 'switchboard-widget', 'over the overlay too')
  await loadedFrame(page)
})

t.test('a site with a strict CSP (no inline style, Trusted Types) gets the same launcher and panel', async (t) => {
  const refused: string[] = []
  const ctx = await browser.newContext()
  t.teardown(() => ctx.close())
  const page = await ctx.newPage()
  page.on('console', (m) => {
    if (/Content Security Policy|TrustedHTML|Trusted Type/i.test(m.text())) refused.push(m.text())
  })
  await page.goto(`${host}/strict`)
  await launcher(page).waitFor({ timeout: WAIT_MS })
  const box = (await launcher(page).boundingBox())!
  const viewport = page.viewportSize()!
  t.same(
    [box.width, box.height, viewport.width - box.x - box.width, viewport.height - box.y - box.height],
    [56, 56, 20, 20],
    'styled and placed: its styles are not inline markup the policy refuses',
  )
  await launcher(page).click()
  await chatFrame(page).waitFor({ state: 'visible', timeout: WAIT_MS })
  const panel = (await chatFrame(page).boundingBox())!
  t.same([panel.width, panel.height], [380, 600], 'the panel at full size')
  await loadedFrame(page)
  t.same(refused, [], 'nothing refused by the page’s policy')
})

t.test('bottom-left, Simplified Chinese, z-index and colour from the tag', async (t) => {
  const page = await open(t, '/left')
  const button = launcher(page, '打开聊天')
  await button.waitFor({ timeout: WAIT_MS })
  const box = (await button.boundingBox())!
  t.equal(box.x, 20, 'at the bottom-left')
  t.same(
    await page.evaluate(() => {
      const g = globalThis as any
      const host = g.document.querySelector('switchboard-widget')
      const button = host.shadowRoot.querySelector('button')
      return [g.getComputedStyle(host).zIndex, g.getComputedStyle(button).backgroundColor]
    }),
    ['1000', 'rgb(10, 125, 90)'],
    'the z-index and colour from the tag',
  )
  await button.click()
  await launcher(page, '关闭聊天').waitFor({ timeout: WAIT_MS })
  const panel = (await chatFrame(page).boundingBox())!
  t.equal(panel.x, 20, 'the panel aligned to the left edge')
  t.equal(new URL((await chatFrame(page).getAttribute('src'))!).searchParams.get('locale'), 'zh-CN')
  t.equal(await chatFrame(page).getAttribute('title'), '聊天')
})

t.test('a 390×844 phone: open is full screen and follows the visual viewport (keyboard, zoom)', async (t) => {
  const page = await open(t, '/', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  await launcher(page).tap({ timeout: WAIT_MS })
  await chatFrame(page).waitFor({ state: 'visible', timeout: WAIT_MS })
  t.same(await chatFrame(page).boundingBox(), { x: 0, y: 0, width: 390, height: 844 }, 'the whole screen')
  t.equal(await launcher(page, 'Close chat').isVisible(), false, 'the launcher is under it (the frame closes itself)')

  // an on-screen keyboard shrinks the visual viewport: the frame shrinks with it, its bottom stays visible
  await page.setViewportSize({ width: 390, height: 500 })
  await page.waitForFunction(
    () =>
      (globalThis as any).document
        .querySelector('switchboard-widget')!
        .shadowRoot!.querySelector('iframe')!
        .getBoundingClientRect().height === 500,
    undefined,
    { timeout: WAIT_MS },
  )
  t.same(await chatFrame(page).boundingBox(), { x: 0, y: 0, width: 390, height: 500 }, 'the keyboard hides nothing')

  // pinch-zoomed in: the frame is laid over exactly the visible part of the page
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 })
  await page.waitForFunction(() => (globalThis as any).visualViewport.scale > 1.5, undefined, { timeout: WAIT_MS })
  // the loader follows the viewport's resize event: give it that event before reading (failed once read at once)
  await page
    .waitForFunction(
      () => {
        const g = globalThis as any
        const r = g.document
          .querySelector('switchboard-widget')
          .shadowRoot.querySelector('iframe')
          .getBoundingClientRect()
        return Math.round(r.width) === Math.round(g.visualViewport.width)
      },
      undefined,
      { timeout: WAIT_MS },
    )
    .catch(() => undefined)
  const seen = await page.evaluate(() => {
    const g = globalThis as any
    const v = g.visualViewport
    const r = g.document.querySelector('switchboard-widget').shadowRoot.querySelector('iframe').getBoundingClientRect()
    const round = (o: Record<string, number>) =>
      Object.fromEntries(Object.entries(o).map(([k, n]) => [k, Math.round(n)]))
    return {
      visual: round({ top: v.offsetTop, left: v.offsetLeft, width: v.width, height: v.height }),
      frame: round({ top: r.top, left: r.left, width: r.width, height: r.height }),
    }
  })
  t.same(seen.frame, seen.visual, `the frame covers the visual viewport (${JSON.stringify(seen.visual)})`)
})

t.test('frame-ancestors: a site the scope does not list gets no frame; a listed one does', async (t) => {
  const listOnly = async (origins: string[], name: string) => {
    const scope = kit.freshScope(name)
    must(
      await kit.api.put(
        '/api/security/config/workspace',
        { portal: { widget: { allowed_origins: origins } }, change_ref: `W-${name}`, reason: 'embedding' },
        kit.svc(scope),
      ),
      200,
      'allowed_origins',
    )
    // the gateway keeps a scope's list WIDGET_POLICY_CACHE_MS (5 s): wait until its frame says it
    const url = `${system.url}/widget/?tenant_id=${scope.tenant_id}&workspace_id=${scope.workspace_id}`
    await until(`frame-ancestors ${origins.join(' ')}`, async () => {
      const csp = (await fetch(url)).headers.get('content-security-policy') ?? ''
      return csp.includes(`frame-ancestors ${origins.join(' ')}`) ? true : undefined
    })
    return scope
  }

  const elsewhere = await listOnly(['https://shop.example'], 'wfa')
  const page = await open(t, `/scope?tenant=${elsewhere.tenant_id}&workspace=${elsewhere.workspace_id}`)
  const refused = page.waitForEvent('console', {
    predicate: (m) => /frame-ancestors/.test(m.text()),
    timeout: WAIT_MS,
  })
  await launcher(page).click()
  t.match((await refused).text(), /violates .*"frame-ancestors https:\/\/shop\.example".*blocked/s, 'Chromium refuses')
  const handle = await chatFrame(page).elementHandle()
  const frame = await handle!.contentFrame()
  t.not(new URL(frame!.url()).origin, gateway, 'the frame shows no page of the gateway')

  const listed = await listOnly(['https://shop.example', hostOrigin], 'wfb')
  const ok = await open(t, `/scope?tenant=${listed.tenant_id}&workspace=${listed.workspace_id}`)
  await launcher(ok).click()
  const loaded = await loadedFrame(ok)
  t.ok(loaded.url().startsWith(`${system.url}/widget/`), 'a listed site gets the chat')
})
