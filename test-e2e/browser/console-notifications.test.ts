// The console's notifications in a real browser (Debian's Chromium) against the embedded default: customer messages
// sent over the hub's protocol raise the unread count in the tab title ("(2) Switchboard"); no tone plays before
// "Enable sound" is clicked (browsers block autoplay), after it a new customer message plays one — observed through
// an init script that wraps AudioContext and counts started oscillators; axe on the shell with the controls. Every
// wait is on a role, a name, a text or the title: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t from 'tap'
import { REMINDER_MS } from '../../apps/console/src/features/notifications/reminder.ts'
import { login } from '../harness/auth.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { openSocket } from '../harness/realtime-kit.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)

/** Counts the oscillators the page starts (the tone), before the page's own script runs. */
async function countTones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as any
    g.__tones = 0
    const Native = g.AudioContext
    g.AudioContext = class extends Native {
      createOscillator() {
        const oscillator = super.createOscillator()
        const start = oscillator.start.bind(oscillator)
        oscillator.start = (...args: unknown[]) => {
          g.__tones++
          return start(...args)
        }
        return oscillator
      }
    }
  })
}

const tones = (page: Page) => page.evaluate(() => (globalThis as any).__tones as number)
const titleIs = (page: Page, title: string) =>
  page.waitForFunction((want) => (globalThis as any).document.title === want, title, { timeout: WAIT_MS })

t.test('unread count in the title; a tone on a new customer message only after "Enable sound"', async (t) => {
  const scope = kit.freshScope('notify')
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)
  const carol = await kit.customer(scope, 'carol')
  const carolToken = (await login(kit.api, carol.username, carol.password)).token

  const page = await newPage(t, browser, system)
  await countTones(page)
  await loginAs(page, alice)
  await page.getByText('No conversations here.').waitFor({ timeout: WAIT_MS })
  t.equal(await page.title(), 'Switchboard', 'no count in the title while nothing is unread')

  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: 'Where is my parcel?' })
  const id = (await customer.next('session')).data.session_id as string
  must(
    await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, kit.svc(scope)),
    200,
    'assign',
  )
  const row = page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option')
    .filter({ hasText: 'Where is my parcel?' })
  await row.getByRole('img', { name: '1 unread' }).waitFor({ timeout: WAIT_MS })
  await titleIs(page, '(1) Switchboard')
  t.pass('the server unread count is in the title')
  t.equal(await tones(page), 0, 'no tone before sound is enabled')

  const enable = page.getByRole('button', { name: 'Enable sound' })
  await enable.click()
  t.equal(await enable.getAttribute('aria-pressed'), 'true', 'the button shows sound is on')

  customer.send({ type: 'text-message', data: 'It was due on Monday' })
  await titleIs(page, '(2) Switchboard')
  t.pass('a customer message over the hub raises the count in the title')
  await page.waitForFunction(() => (globalThis as any).__tones > 0, undefined, { timeout: WAIT_MS })
  t.pass('the new customer message played a tone')
  t.ok(
    await page.getByRole('button', { name: 'Enable notifications' }).isVisible(),
    'notifications are asked on a click',
  )

  await checkAxe(t, page, 'the shell with the notification controls')
})

t.test('a reminder repeats while the waiting queue is not empty', async (t) => {
  const scope = kit.freshScope('remind')
  // an agent of the workspace who is not online: nobody takes the conversation, it waits
  const bob = await kit.agent(scope, 'bob')
  const dave = await kit.customer(scope, 'dave')
  const { session } = await kit.hub(scope).open('Is anyone there?', dave.user_id)
  must(
    await kit.api.post('/api/session-transfer/to-human', { session_id: session.id }, kit.svc(scope)),
    200,
    'to-human',
  )

  const page = await newPage(t, browser, system)
  // the page's timers on a clock the test moves: the reminder's interval without waiting for it
  await page.clock.install()
  await countTones(page)
  await loginAs(page, bob)
  await page.getByRole('button', { name: 'Enable sound' }).click()
  await page.getByRole('tab', { name: 'Waiting queue' }).click()
  await page
    .getByRole('listbox', { name: 'Conversations' })
    .getByRole('option')
    .filter({ hasText: 'Is anyone there?' })
    .waitFor({ timeout: WAIT_MS })
  t.equal(await tones(page), 0, 'no tone yet')
  await page.clock.fastForward(REMINDER_MS)
  await page.waitForFunction(() => (globalThis as any).__tones > 0, undefined, { timeout: WAIT_MS })
  t.pass('the reminder played after REMINDER_MS')
})

/**
 * Records `new Notification(...)` instead of showing one, and lets the test say whether the agent is looking: the
 * page's `document.visibilityState` and `document.hasFocus()` (what the console checks) read `__hidden`/`__blurred`.
 */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as any
    g.__notifications = []
    g.__hidden = false
    g.__blurred = false
    const Native = g.Notification
    class Recorded extends EventTarget {
      title: string
      body: string
      onclick: unknown = null
      constructor(title: string, options: { body?: string; tag?: string } = {}) {
        super()
        this.title = title
        this.body = options.body ?? ''
        g.__notifications.push({ title, body: this.body, tag: options.tag ?? null })
      }
      close() {}
      static get permission() {
        return Native.permission
      }
      static requestPermission() {
        return Native.requestPermission()
      }
    }
    g.Notification = Recorded
    Object.defineProperty(g.Document.prototype, 'visibilityState', {
      configurable: true,
      get: () => (g.__hidden ? 'hidden' : 'visible'),
    })
    Object.defineProperty(g.Document.prototype, 'hidden', { configurable: true, get: () => g.__hidden })
    g.Document.prototype.hasFocus = () => !g.__blurred && !g.__hidden
  })
}

const notifications = (page: Page) =>
  page.evaluate(() => (globalThis as any).__notifications as { title: string; body: string; tag: string | null }[])

t.test('granted notifications: one per customer message while the agent is away, with the customer name', async (t) => {
  const scope = kit.freshScope('popup')
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)
  const carol = await kit.customer(scope, 'carol')
  const carolToken = (await login(kit.api, carol.username, carol.password)).token
  const carolName = `carol ${kit.suffix}`

  const page = await newPage(t, browser, system)
  await page.context().grantPermissions(['notifications'], { origin: system.url })
  await recordNotifications(page)
  await loginAs(page, alice)
  t.equal(
    await page.evaluate(() => (globalThis as any).Notification.permission),
    'granted',
    'the permission is granted',
  )
  t.equal(
    await page.getByRole('button', { name: 'Enable notifications' }).getAttribute('aria-pressed'),
    'true',
    'the control shows notifications are on',
  )

  const customer = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
  customer.send({ type: 'text-message', data: 'Hello, anyone there?' })
  const id = (await customer.next('session')).data.session_id as string
  must(
    await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, kit.svc(scope)),
    200,
    'assign',
  )
  const row = page.getByRole('listbox', { name: 'Conversations' }).getByRole('option').filter({ hasText: carolName })
  await row.waitFor({ timeout: WAIT_MS })

  // while the agent looks at the console: the message shows, no notification
  customer.send({ type: 'text-message', data: 'My order number is 4711' })
  await row.filter({ hasText: 'My order number is 4711' }).waitFor({ timeout: WAIT_MS })
  t.same(await notifications(page), [], 'no notification while the tab is visible and focused')

  // another window has the focus (the tab itself still visible)
  await page.evaluate(() => {
    ;(globalThis as any).__blurred = true
  })
  customer.send({ type: 'text-message', data: 'The parcel never came' })
  await page.waitForFunction(() => (globalThis as any).__notifications.length > 0, undefined, { timeout: WAIT_MS })
  // the tab hidden too; the next message is the mark that every frame of the one before was handled
  await page.evaluate(() => {
    ;(globalThis as any).__hidden = true
  })
  customer.send({ type: 'text-message', data: 'Please call me back' })
  await page.waitForFunction(() => (globalThis as any).__notifications.length > 1, undefined, { timeout: WAIT_MS })
  // back at the console: a last message that notifies nobody, and marks the end
  await page.evaluate(() => {
    const g = globalThis as any
    g.__hidden = false
    g.__blurred = false
  })
  customer.send({ type: 'text-message', data: 'Thanks' })
  await row.filter({ hasText: 'Thanks' }).waitFor({ timeout: WAIT_MS })

  const tag = `conversation-${id}`
  t.same(
    await notifications(page),
    [
      { title: `New message from ${carolName}`, body: 'The parcel never came', tag },
      { title: `New message from ${carolName}`, body: 'Please call me back', tag },
    ],
    "exactly one notification per message sent while the agent was away, with the customer's name and words",
  )
})
