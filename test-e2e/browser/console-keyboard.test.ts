// The console by keyboard alone, in a real browser (Debian's Chromium) against the embedded default: log in by
// typing and Enter; Ctrl+K opens the command palette ("Command"), "waiting" + Enter shows the Waiting queue, a
// customer's name + Enter opens their conversation; `?` opens "Keyboard shortcuts", Escape closes it and focus goes
// back where it was; `?` and `j` typed in the composer or the palette's box are text, not shortcuts; axe with each
// dialog open. Every wait is on a role, a name or a text: no sleeps, no retries.
import type { Locator, Page } from 'playwright-core'
import t from 'tap'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, newPage, shellReady, WAIT_MS } from './harness.ts'

// CONSOLE_DIR (a build of one's own) is passed on when set; else the gateway serves apps/console/dist
const system = await consoleSystem(t, 'embedded', {
  env: process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {},
})
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' })
const cheatSheet = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' })
const hasFocus = (locator: Locator) => locator.evaluate((el) => el === (globalThis as any).document.activeElement)

t.test('the main path by keyboard: log in, the palette, the cheat sheet', async (t) => {
  const scope = kit.freshScope('keys')
  const agent = await kit.agent(scope, 'kim', { online: true })
  await kit.onlineAgents(scope, 1)
  // an older conversation first, so that `j` from Quentin's (the newest, on top) would open this one
  const other = await kit.customer(scope, 'olga')
  const { session: older } = await kit.hub(scope).open('An older question', other.user_id)
  must(
    await kit.api.post(`/api/omni/sessions/${older.id}/assign`, { agent_id: agent.user_id }, kit.svc(scope)),
    200,
    'assign the older one',
  )
  const customer = await kit.customer(scope, 'quentin')
  const { session } = await kit.hub(scope).open('Where is my parcel?', customer.user_id)
  must(
    await kit.api.post(`/api/omni/sessions/${session.id}/assign`, { agent_id: agent.user_id }, kit.svc(scope)),
    200,
    'assign',
  )

  const page = await newPage(t, browser, system)
  await page.goto('/')
  await page.getByLabel('Username').focus()
  await page.keyboard.type(agent.username)
  await page.keyboard.press('Tab')
  await page.keyboard.type(agent.password)
  await page.keyboard.press('Enter')
  await shellReady(page)
  t.pass('logged in by typing and Enter')
  await page.getByRole('tab', { name: 'Mine', selected: true }).waitFor({ timeout: WAIT_MS })
  const row = page.getByRole('listbox', { name: 'Conversations' }).getByRole('option')
  await row.filter({ hasText: 'Where is my parcel?' }).waitFor({ timeout: WAIT_MS })

  // Ctrl+K → "waiting" → Enter
  await page.keyboard.press('Control+k')
  const box = palette(page).getByRole('combobox', { name: 'Command' })
  await box.waitFor({ timeout: WAIT_MS })
  t.ok(await hasFocus(box), 'the palette opens with its box focused')
  await checkAxe(t, page, 'the command palette')
  await page.keyboard.type('?j waiting')
  t.equal(await box.inputValue(), '?j waiting', '? and j typed in the box are text')
  t.equal(await cheatSheet(page).count(), 0, 'typing ? in the box opens no cheat sheet')
  await page.keyboard.press('Control+a')
  await page.keyboard.press('Backspace')
  await page.keyboard.type('waiting')
  await palette(page).getByRole('option', { name: 'Go to Waiting queue', selected: true }).waitFor({ timeout: WAIT_MS })
  await page.keyboard.press('Enter')
  await palette(page).waitFor({ state: 'detached', timeout: WAIT_MS })
  await page.getByRole('tab', { name: 'Waiting queue', selected: true }).waitFor({ timeout: WAIT_MS })
  t.pass('Enter ran "Go to Waiting queue": its tab is selected')

  // `?` → the cheat sheet; Escape closes it and focus returns to the tab
  const tab = page.getByRole('tab', { name: 'Waiting queue' })
  await tab.focus()
  await page.keyboard.press('?')
  await cheatSheet(page).waitFor({ timeout: WAIT_MS })
  for (const binding of ['Open the command palette', 'Show this list of shortcuts', 'Next conversation']) {
    await cheatSheet(page).getByRole('cell', { name: binding }).waitFor({ timeout: WAIT_MS })
  }
  t.pass('the cheat sheet lists the bindings')
  await checkAxe(t, page, 'the keyboard shortcuts dialog')
  await page.keyboard.press('Escape')
  await cheatSheet(page).waitFor({ state: 'detached', timeout: WAIT_MS })
  t.ok(await hasFocus(tab), 'Escape closes the cheat sheet and focus returns to where it was')

  // Ctrl+K → the customer's name → Enter opens the conversation (from the cached Mine list)
  await page.keyboard.press('Control+k')
  await box.waitFor({ timeout: WAIT_MS })
  await page.keyboard.type(`quentin ${kit.suffix}`)
  await palette(page)
    .getByRole('option', { name: /^Open conversation: quentin/, selected: true })
    .waitFor({
      timeout: WAIT_MS,
    })
  await page.keyboard.press('Enter')
  await page.waitForURL(`**/conversations/${session.id}`, { timeout: WAIT_MS })
  t.pass('the palette opens a conversation by its customer name')

  // back to Mine (Quentin's on top, selected); in the composer, ? and j are text: no cheat sheet, no move
  await page.keyboard.press('Control+k')
  await box.waitFor({ timeout: WAIT_MS })
  await page.keyboard.type('mine')
  await page.keyboard.press('Enter')
  await page.getByRole('tab', { name: 'Mine', selected: true }).waitFor({ timeout: WAIT_MS })
  await row.filter({ hasText: 'An older question' }).waitFor({ timeout: WAIT_MS })
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.focus()
  await page.keyboard.type('?j')
  t.equal(await composer.inputValue(), '?j', '? and j typed in the composer are text')
  t.equal(await cheatSheet(page).count(), 0, 'no cheat sheet while typing')
  t.match(page.url(), `/conversations/${session.id}`, 'j in the composer does not move through the list')

  // Escape in the palette closes it and returns focus to the composer
  await page.keyboard.press('Control+k')
  await box.waitFor({ timeout: WAIT_MS })
  await page.keyboard.press('Escape')
  await palette(page).waitFor({ state: 'detached', timeout: WAIT_MS })
  t.ok(await hasFocus(composer), 'Escape closes the palette and focus returns to the composer')

  // outside a text field the same `j` moves on to the next conversation
  await page.getByRole('listbox', { name: 'Conversations' }).focus()
  await page.keyboard.press('j')
  await page.waitForURL(`**/conversations/${older.id}`, { timeout: WAIT_MS })
  t.pass('j outside a text field opens the next conversation')
})
