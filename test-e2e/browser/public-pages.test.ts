// The public pages in Debian's Chromium with JavaScript turned off, as a customer with scripts blocked sees them:
// the help centre browsed, searched and read, in English and Chinese; a CSAT link with ?rating=4 answered with a
// plain form, the thank-you page, then the used link's 409 page. No CSP report on any page (the inline stylesheet
// is allowed by its hash). axe needs script in the page, so it runs in a second, JavaScript-enabled context on the
// same addresses — where a hostile article must not get to run anything either.

import type { Browser, Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { publicPagesKit } from '../harness/public-pages-kit.ts'
import { startSystem } from '../harness/system.ts'
import { checkAxe, launchBrowser, WAIT_MS } from './harness.ts'

const system = await startSystem('embedded')
t.teardown(() => system.close())
const browser = await launchBrowser(t)
const kit = await publicPagesKit(system)
const { docs, home } = kit

/** A page in a fresh context; `script: false` turns JavaScript off. CSP reports and dialogs are collected. */
async function open(t: Test, b: Browser, opts: { script: boolean; locale?: string }) {
  const context = await b.newContext({
    baseURL: system.url,
    javaScriptEnabled: opts.script,
    locale: opts.locale ?? 'en-US',
  })
  t.teardown(() => context.close())
  const page = await context.newPage()
  const cspReports: string[] = []
  const dialogs: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspReports.push(m.text())
  })
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  return { page, cspReports, dialogs }
}

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor({ timeout: WAIT_MS })

t.test('help centre with JavaScript off: home, search, article; then in Chinese', async (t) => {
  const { page, cspReports } = await open(t, browser, { script: false })
  const res = await page.goto(home)
  t.equal(res?.status(), 200)
  await h1(page, 'Help centre')
  t.ok(await page.getByRole('link', { name: docs.reset.title }).isVisible(), 'the article is listed')
  t.equal(await page.getByRole('link', { name: docs.internal.title }).count(), 0, 'the private one is not')

  await page.getByRole('searchbox', { name: 'Search the help centre' }).fill(`password ${kit.suffix}`)
  await page.getByRole('button', { name: 'Search' }).click()
  await h1(page, `Results for “password ${kit.suffix}”`)
  t.match(page.url(), /\/search\?q=password\+/)
  t.ok(await page.getByText('1 article found').isVisible())

  await page.getByRole('link', { name: docs.reset.title }).click()
  await h1(page, docs.reset.title)
  t.match(page.url(), new RegExp(`/articles/${docs.reset.id}-reset-your-password-`))
  t.ok(await page.getByRole('heading', { level: 3, name: 'Still stuck?' }).isVisible(), 'the Markdown rendered')
  t.equal(await page.locator('article strong').textContent(), 'Settings')

  await page.getByRole('link', { name: '简体中文' }).click()
  await h1(page, docs.reset.title)
  t.equal(await page.locator('html').getAttribute('lang'), 'zh-CN')
  t.ok(await page.getByRole('link', { name: '返回帮助中心' }).isVisible())
  t.same(cspReports, [], 'no CSP report: the stylesheet is allowed by its hash')

  const zh = await open(t, browser, { script: false, locale: 'zh-CN' })
  await zh.page.goto(home)
  await h1(zh.page, '帮助中心')
  t.equal(await zh.page.locator('html').getAttribute('lang'), 'zh-CN', 'from the browser’s language')
})

t.test(
  'help centre with JavaScript on: axe on every page, the stylesheet applied, a hostile article inert',
  async (t) => {
    const { page, cspReports, dialogs } = await open(t, browser, { script: true })
    await page.goto(home)
    await h1(page, 'Help centre')
    await checkAxe(t, page, 'the help centre home')
    t.match(
      await page.evaluate(() => {
        const g = globalThis as any
        return g.getComputedStyle(g.document.body).fontFamily as string
      }),
      /system-ui/,
      'the styles apply',
    )

    await page.goto(`${home}/search?q=${encodeURIComponent(`password ${kit.suffix}`)}`)
    await h1(page, `Results for “password ${kit.suffix}”`)
    await checkAxe(t, page, 'search results')

    await page.getByRole('link', { name: docs.reset.title }).click()
    await h1(page, docs.reset.title)
    await checkAxe(t, page, 'an article')

    await page.goto(home)
    await page.getByRole('link', { name: 'billing', exact: true }).click()
    await h1(page, 'billing')
    await checkAxe(t, page, 'a topic')
    await page.getByRole('link', { name: /Refunds/ }).click()
    await page.getByRole('heading', { level: 3, name: 'Asking for a refund' }).waitFor({ timeout: WAIT_MS })
    t.equal(await page.locator('article script, article img, article [onerror]').count(), 0, 'no hostile element')
    t.equal(await page.locator('a[href^="javascript:"]').count(), 0, 'no javascript: link')
    t.equal(await page.title().then((title) => title.startsWith('</title><script>')), true, 'the title is text')
    await checkAxe(t, page, 'the hostile article')

    const missing = await page.goto(`${home}/articles/${docs.internal.id}`)
    t.equal(missing?.status(), 404)
    await h1(page, 'Page not found')
    await checkAxe(t, page, 'the 404 page')
    t.same(dialogs, [], 'nothing hostile ran')
    t.same(cspReports, [])
  },
)

t.test(
  'CSAT with JavaScript off: ?rating=4 preselected, answered, thank-you; the used link is a 409 page',
  async (t) => {
    const { token } = await kit.surveyToken(`Printer jam ${kit.suffix}`)
    const link = `/csat/${token}?rating=4`

    // axe first, on the form as it is before the answer (a JavaScript-enabled context on the same address)
    const checker = await open(t, browser, { script: true })
    await checker.page.goto(link)
    await h1(checker.page, 'How did we do?')
    await checkAxe(t, checker.page, 'the CSAT form')

    const { page, cspReports } = await open(t, browser, { script: false })
    const res = await page.goto(link)
    t.equal(res?.status(), 200)
    await h1(page, 'How did we do?')
    t.ok(
      await page.getByText(`About your request “Printer jam ${kit.suffix}”, handled by ${kit.agentName}.`).isVisible(),
    )
    const choices = page.getByRole('group', { name: 'How satisfied are you with the help you received?' })
    t.equal(await choices.getByRole('radio').count(), 5, 'five choices')
    t.ok(await choices.getByRole('radio', { name: '4 – Satisfied' }).isChecked(), '4 preselected by the link')
    t.notOk(await choices.getByRole('radio', { name: '5 – Very satisfied' }).isChecked())
    await page.getByRole('textbox', { name: 'Anything you would like to add? (optional)' }).fill('Quick & kind')
    await page.getByRole('button', { name: 'Send my answer' }).click()
    await h1(page, 'Thank you!')
    t.match(page.url(), new RegExp(`/csat/${token}/thanks$`))

    const used = await page.goto(link)
    t.equal(used?.status(), 409)
    await h1(page, 'This survey has already been answered')
    t.equal(await page.getByRole('radio').count(), 0, 'no form any more')
    t.same(cspReports, [])

    for (const [path, heading] of [
      [`/csat/${token}/thanks`, 'Thank you!'],
      [link, 'This survey has already been answered'],
      [`/csat/${'A'.repeat(43)}`, 'Survey not found'],
    ] as const) {
      await checker.page.goto(path)
      await h1(checker.page, heading)
      await checkAxe(t, checker.page, heading)
    }
    t.same(checker.cspReports, [])
  },
)
