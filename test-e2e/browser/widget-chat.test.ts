// The widget's chat app (apps/widget/src/app) in a real browser (Debian's Chromium) against the embedded default:
// the frame opened as the gateway serves it (`/widget/?tenant_id=…`), and once through a host page on another origin
// that embeds the loader. The agent side is driven through the API (and an agent's own socket for typing and read
// receipts); the AI through the small real servers ai-orchestrator's tests use for its providers and LLM.
// Every wait is on a role, a name, a text, a frame or an API answer: no sleeps, no retries.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { BrowserContextOptions, Page } from 'playwright-core'
import t, { type Test } from 'tap'
import { startLlmStandIn } from '../../services/ai-orchestrator/test/helpers/llm-stand-in.ts'
import { startPrimaryStandIn } from '../../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { login } from '../harness/auth.ts'
import { type Agent, conversationsKit, must, PNG, type Scope } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { openSocket } from '../harness/realtime-kit.ts'
import {
  checkAxe,
  consoleSystem,
  cutSockets,
  instrumentSockets,
  launchBrowser,
  restoreSockets,
  WAIT_MS,
} from './harness.ts'

const WIDGET = fileURLToPath(new URL('../../apps/widget/', import.meta.url))

/** The widget must be built for the gateway to serve it (`npm test` builds it through turbo); else built here. */
function widgetDir(): string {
  if (process.env.WIDGET_DIR) return process.env.WIDGET_DIR
  if (!existsSync(`${WIDGET}dist/frame/index.html`) || !existsSync(`${WIDGET}dist/widget.js`))
    execFileSync('npm', ['run', 'build'], { cwd: WIDGET, stdio: 'inherit' })
  return `${WIDGET}dist`
}

const REFUND = { title: 'Refund policy', content: 'Refunds are paid within 14 days of the return reaching us.' }
const primary = await startPrimaryStandIn({ docs: [REFUND] })
const llm = await startLlmStandIn()
t.teardown(() => Promise.all([primary.close(), llm.close()]))
const p = primary.settings()

const system = await consoleSystem(t, 'embedded', {
  env: {
    WIDGET_DIR: widgetDir(),
    PRIMARY_PROVIDER_ENABLED: 'true',
    PRIMARY_PROVIDER_BASE_URL: p.base_url,
    PRIMARY_PROVIDER_API_KEY: p.api_key,
    PRIMARY_PROVIDER_DATASET_ID: p.dataset_id,
    PRIMARY_PROVIDER_TIMEOUT_MS: '2000',
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: llm.apiKey,
    AI_REPLIES_ENABLED: 'true',
    // the AI answers every question (its "could not find it" too) instead of handing over on low confidence: the
    // tests decide when a human is asked for
    AI_MIN_CONFIDENCE: '0',
    // a small limit, so a 413 is cheap to provoke
    UPLOAD_MAX_BYTES: '4096',
    // the queue moves when the test says (agents coming online, sessions closing kick passes of their own)
    QUEUE_INTERVAL_MS: '3600000',
  },
})
const browser = await launchBrowser(t)
const kit = await conversationsKit(system)
const { api } = kit

/**
 * A workspace of its own, known to identity (a first record there) before a visitor comes; with an agent online
 * unless `offline` (nobody online: the widget shows its away view).
 */
async function freshScope(name: string, opts: { offline?: boolean } = {}): Promise<Scope> {
  const scope = kit.freshScope(name)
  await kit.customer(scope, `${name}_seed`)
  if (!opts.offline) {
    await kit.agent(scope, `${name}_desk`, { online: true })
    await kit.onlineAgents(scope, 1)
  }
  return scope
}

/** A paginated list's rows (`{data, …}`) or a plain list's (`{items}`). */
const rows = (body: any): any[] => body.data ?? body.items ?? []

const frameUrl = (scope: Scope, extra: Record<string, string> = {}) =>
  `/widget/?${new URLSearchParams({ tenant_id: scope.tenant_id, workspace_id: scope.workspace_id, ...extra })}`

/** A fresh context (its own storage) on the frame's URL, closed when `t` ends. */
async function openWidget(
  t: Test,
  scope: Scope,
  opts: { query?: Record<string, string>; context?: BrowserContextOptions; sockets?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ baseURL: system.url, ...opts.context })
  t.teardown(() => context.close())
  const page = await context.newPage()
  if (opts.sockets) await instrumentSockets(page)
  await page.goto(frameUrl(scope, opts.query))
  await composer(page).waitFor({ timeout: WAIT_MS })
  return page
}

const composer = (page: Page, name = 'Message') => page.getByRole('textbox', { name, exact: true })
const log = (page: Page, name = 'Messages') => page.getByRole('log', { name })
const item = (page: Page, text: string) => log(page).getByRole('listitem').filter({ hasText: text })
/** the visitor's own message (its sender is read out as "You:"; the AI's answer may quote the question) */
const mine = (page: Page, text: string) => item(page, `You: ${text}`)

async function say(page: Page, text: string, send = 'Send') {
  await composer(page).fill(text)
  await page.getByRole('button', { name: send, exact: true }).click()
  await mine(page, text).filter({ hasNotText: 'Sending…' }).waitFor({ timeout: WAIT_MS })
}

/** The scope's one conversation, once its first message `text` is stored (read as the agent side reads it). */
async function conversationOf(scope: Scope, text: string): Promise<string> {
  return until(`the conversation with "${text}"`, async () => {
    const list = must(await api.get('/api/omni/sessions', kit.svc(scope)), 200, 'sessions')
    for (const s of rows(list)) {
      const msgs = must(await api.get(`/api/omni/sessions/${s.id}/messages`, kit.svc(scope)), 200, 'messages')
      if (msgs.items.some((m: any) => m.content === text && m.sender === 'customer')) return s.id as string
    }
    return undefined
  })
}

async function assign(scope: Scope, id: string, agent: Agent) {
  must(await api.post(`/api/omni/sessions/${id}/assign`, { agent_id: agent.user_id }, kit.svc(scope)), 200, 'assign')
}

/** The agent's reply, posted as the agent through the API (the console does the same). */
async function reply(id: string, token: string, content: string) {
  must(await api.post(`/api/omni/sessions/${id}/messages`, { content }, { token }), 201, `reply "${content}"`)
}

async function agentWithToken(scope: Scope, name: string, opts: { max_concurrent?: number } = {}) {
  const agent = await kit.agent(scope, name, { online: true, max_concurrent: opts.max_concurrent ?? 10 })
  const token = (await login(api, agent.username, agent.password)).token
  return { agent, token }
}

t.test('the first message reaches the agent; the reply, typing and read receipts come back; axe', async (t) => {
  const scope = await freshScope('wchat')
  const { agent, token } = await agentWithToken(scope, 'wanda')
  const page = await openWidget(t, scope)
  t.equal(await composer(page).count(), 1, 'the composer is a text box named "Message"')
  await checkAxe(t, page, 'the widget before the first message')

  await say(page, 'My order 5521 has not arrived')
  const id = await conversationOf(scope, 'My order 5521 has not arrived')
  t.pass('the first message started a conversation the agent side reads')
  await assign(scope, id, agent)

  // the agent's own socket in the session: the visitor's typing reaches it, its typing and read come back
  const console_ = await openSocket(system.url, { token, via: 'protocol' }, t)
  console_.send({ type: 'join', data: { session_id: id } })
  await console_.next('session', { timeoutMs: WAIT_MS })
  await composer(page).fill('Also the invoice')
  const typing = await console_.next('typing', { timeoutMs: WAIT_MS })
  t.match(typing.data, { state: 'start', from: { kind: 'visitor' } }, "the visitor's typing reaches the agent")
  console_.send({ type: 'typing', data: { state: 'start' }, session_id: id })
  await page.getByRole('status').filter({ hasText: 'An agent is typing…' }).waitFor({ timeout: WAIT_MS })
  t.pass("the agent's typing shows in the widget")

  await reply(id, token, 'Sorry about that, let me look it up.')
  const answer = item(page, 'Sorry about that, let me look it up.')
  await answer.waitFor({ timeout: WAIT_MS })
  t.equal(await answer.getByText('Agent', { exact: true }).count(), 1, "the reply is marked as the agent's")
  const visitorRead = await console_.next('read', { timeoutMs: WAIT_MS })
  t.match(visitorRead.data, { from: { kind: 'visitor' } }, 'the open widget tells the agent the reply was read')

  const held = must(await api.get(`/api/omni/sessions/${id}/messages`, kit.svc(scope)), 200, 'messages').items
  const first = held.find((m: any) => m.content === 'My order 5521 has not arrived')
  console_.send({ type: 'read', data: { message_id: first.id }, session_id: id })
  await mine(page, 'My order 5521 has not arrived').getByText('Seen').waitFor({ timeout: WAIT_MS })
  t.pass("the agent's read receipt shows under the visitor's message")
  await checkAxe(t, page, 'the widget in a conversation')
})

t.test('the AI answers while no human has the conversation, marked as the AI', async (t) => {
  const scope = await freshScope('wai')
  const page = await openWidget(t, scope)
  await say(page, 'when are refunds paid?')
  const answer = log(page)
    .getByRole('listitem')
    .filter({ hasText: /Refunds are paid within 14 days/ })
  await answer.last().waitFor({ timeout: WAIT_MS })
  t.equal(await answer.last().getByText('AI assistant').count(), 1, 'named the AI assistant')
  t.equal(await answer.last().getByText('AI', { exact: true }).count(), 1, 'with the AI badge')
})

t.test('talk to a human: the queue position shows and counts down as agents take other conversations', async (t) => {
  const scope = await freshScope('wqueue', { offline: true })
  const { agent: erin } = await agentWithToken(scope, 'erin', { max_concurrent: 1 })
  await kit.onlineAgents(scope, 1)
  // two customers before the visitor: one takes erin's only seat, the next waits first in line
  const ahead = []
  for (const text of ['first in line', 'second in line']) {
    const c = await kit.customer(scope, 'queuer')
    const { session } = await kit.hub(scope).open(text, c.user_id)
    ahead.push(
      must(
        await api.post('/api/session-transfer/to-human', { session_id: session.id }, kit.svc(scope)),
        200,
        'to-human',
      ),
    )
  }
  t.equal(ahead[0].new_agent_id, erin.user_id, 'the one seat is taken')
  t.match(ahead[1], { is_waiting: true, queue_position: 1 })

  const page = await openWidget(t, scope)
  await say(page, 'I have a question about billing')
  await page.getByRole('button', { name: 'Talk to a human' }).click()
  const queue = page.getByRole('status', { name: 'Queue' })
  await queue.filter({ hasText: 'You are number 2 in the queue' }).waitFor({ timeout: WAIT_MS })
  t.pass('the visitor sees its place: number 2')
  t.equal(await page.getByRole('button', { name: 'Talk to a human' }).count(), 0, 'the button is gone while waiting')

  // another agent comes online and takes the one ahead: the visitor moves up
  const frank = await kit.agent(scope, 'frank', { max_concurrent: 1 })
  await kit.setStatus(scope, frank, 'online')
  await kit.onlineAgents(scope, 2)
  const id = await conversationOf(scope, 'I have a question about billing')
  await until('the visitor first in line', async () => {
    const w = rows(must(await api.get('/api/session-transfer/waiting', kit.svc(scope)), 200, 'waiting'))
    return w.length === 1 && w[0].session_id === id && w[0].queue_position === 1 ? w : undefined
  })
  await queue.filter({ hasText: 'You are number 1 in the queue' }).waitFor({ timeout: WAIT_MS })
  t.pass('number 1 once the conversation ahead was taken')

  // erin's first conversation closes: hers is the visitor's now, the queue status goes
  must(await api.post(`/api/omni/sessions/${ahead[0].session_id}/close`, {}, kit.svc(scope)), 200, 'close')
  await queue.waitFor({ state: 'detached', timeout: WAIT_MS })
  const handed = must(await api.get(`/api/omni/sessions/${id}`, kit.svc(scope)), 200, 'session')
  t.equal(handed.agent_id, erin.user_id, 'an agent has the conversation')
})

t.test('reload: the same conversation and its history, and what came meanwhile', async (t) => {
  const scope = await freshScope('wreload')
  const { agent, token } = await agentWithToken(scope, 'rita')
  const page = await openWidget(t, scope)
  await say(page, 'Is the blue jacket in stock?')
  const id = await conversationOf(scope, 'Is the blue jacket in stock?')
  await assign(scope, id, agent)
  await reply(id, token, 'Yes, in all sizes.')
  await item(page, 'Yes, in all sizes.').waitFor({ timeout: WAIT_MS })

  await page.reload()
  await composer(page).waitFor({ timeout: WAIT_MS })
  await item(page, 'Yes, in all sizes.').waitFor({ timeout: WAIT_MS })
  t.equal(await mine(page, 'Is the blue jacket in stock?').count(), 1, 'the first message, once')
  t.equal(await item(page, 'Yes, in all sizes.').count(), 1, 'the reply, once')

  // away from the page, the agent writes; a later visit (a new page of the same browser) shows it
  await page.close()
  await reply(id, token, 'Shall I reserve one?')
  const later = await page.context().newPage()
  await later.goto(frameUrl(scope))
  await item(later, 'Shall I reserve one?').waitFor({ timeout: WAIT_MS })
  t.equal(await item(later, 'Yes, in all sizes.').count(), 1, 'the history kept')
  await say(later, 'Please do, size M')
  t.equal(await conversationOf(scope, 'Please do, size M'), id, 'the same conversation goes on')
  const list = must(await api.get('/api/omni/sessions', kit.svc(scope)), 200, 'sessions')
  t.equal(rows(list).length, 1, 'no second conversation was started')
})

t.test('the socket drops while the agent writes twice: "Reconnecting…", then both, once, in order', async (t) => {
  const scope = await freshScope('wdrop')
  const { agent, token } = await agentWithToken(scope, 'dora')
  const page = await openWidget(t, scope, { sockets: true })
  await say(page, 'Where is parcel 77?')
  const id = await conversationOf(scope, 'Where is parcel 77?')
  await assign(scope, id, agent)
  await reply(id, token, 'Checking now.')
  await item(page, 'Checking now.').waitFor({ timeout: WAIT_MS })

  await cutSockets(page)
  await page.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor({ timeout: WAIT_MS })
  t.pass('the widget says it is reconnecting')
  await reply(id, token, 'It left the depot.')
  await reply(id, token, 'It arrives tomorrow.')
  // written while down: kept as pending and sent after the resume
  await composer(page).fill('Thanks!')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await restoreSockets(page)

  await item(page, 'It arrives tomorrow.').waitFor({ timeout: WAIT_MS })
  await mine(page, 'Thanks!').filter({ hasNotText: 'Sending…' }).waitFor({ timeout: WAIT_MS })
  await page.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor({ state: 'detached', timeout: WAIT_MS })
  const texts = await log(page).getByRole('listitem').allInnerTexts()
  const at = (s: string) => texts.filter((x) => x.includes(s) && !x.includes('AI assistant')).length
  t.same([at('It left the depot.'), at('It arrives tomorrow.'), at('Thanks!')], [1, 1, 1], 'each once')
  t.ok(
    texts.findIndex((x) => x.includes('It left the depot.')) <
      texts.findIndex((x) => x.includes('It arrives tomorrow.')),
    'in the order written',
  )
  const stored = must(await api.get(`/api/omni/sessions/${id}/messages`, kit.svc(scope)), 200, 'messages').items
  t.equal(stored.filter((m: any) => m.content === 'Thanks!').length, 1, 'the message written while down, stored once')
})

t.test(
  'an attachment is sent; too large (413), a false type (415) and a message too long are refused in words',
  async (t) => {
    const scope = await freshScope('wfile')
    const page = await openWidget(t, scope)
    await say(page, 'Here is a photo of the damage')
    const id = await conversationOf(scope, 'Here is a photo of the damage')

    const attach = page.getByLabel('Attach a file')
    await attach.setInputFiles({ name: 'damage.png', mimeType: 'image/png', buffer: Buffer.from(PNG) })
    await log(page).getByRole('img', { name: 'Attachment: damage.png' }).waitFor({ timeout: WAIT_MS })
    t.pass('the image shows in the conversation')
    const stored = await until('the attachment message stored', async () => {
      const msgs = must(await api.get(`/api/omni/sessions/${id}/messages`, kit.svc(scope)), 200, 'messages').items
      return msgs.find((m: any) => typeof m.metadata?.upload_id === 'string')
    })
    t.match(stored.metadata, { filename: 'damage.png', content_type: 'image/png' }, 'the agent side has the upload')

    const big = Buffer.concat([Buffer.from(PNG), Buffer.alloc(5000)])
    await attach.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big })
    await page.getByRole('alert').filter({ hasText: 'That file is too large to send.' }).waitFor({ timeout: WAIT_MS })
    t.pass('413 in words')
    await attach.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') })
    await page
      .getByRole('alert')
      .filter({ hasText: 'That type of file cannot be sent here.' })
      .waitFor({ timeout: WAIT_MS })
    t.pass('415 in words')

    // a message over conversations' limit: refused in words, not left "Sending…" to be refused again at each reconnect
    await composer(page).fill('x'.repeat(17_000))
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.getByRole('alert').filter({ hasText: 'That message is too long.' }).waitFor({ timeout: WAIT_MS })
    await log(page).getByText('Sending…').waitFor({ state: 'detached', timeout: WAIT_MS })
    t.pass('a message too long is refused in words and not kept as pending')
  },
)

t.test('close → CSAT in the widget → listed by /api/satisfactions', async (t) => {
  const scope = await freshScope('wcsat')
  const { agent, token } = await agentWithToken(scope, 'carl')
  const page = await openWidget(t, scope)
  await say(page, 'Can I change my delivery address?')
  const id = await conversationOf(scope, 'Can I change my delivery address?')
  await assign(scope, id, agent)
  await reply(id, token, 'Done, it is changed.')
  must(await api.post(`/api/omni/sessions/${id}/close`, {}, { token }), 200, 'close')

  const form = page.getByRole('group', { name: 'How was your conversation?' })
  await form.waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the CSAT form')
  await form.getByRole('radio', { name: '4 – Good' }).check()
  await page.getByLabel('Comment (optional)').fill('Quick and friendly')
  await page.getByRole('button', { name: 'Send rating' }).click()
  await page.getByRole('status').filter({ hasText: 'Thank you for your feedback!' }).waitFor({ timeout: WAIT_MS })
  const listed = await until('the rating listed', async () => {
    const r = must(await api.get(`/api/satisfactions?session_id=${id}`, kit.svc(scope)), 200, 'satisfactions')
    return rows(r).find((s: any) => s.session_id === id)
  })
  t.match(listed, { rating: 4, comment: 'Quick and friendly' }, 'the rating is stored for the conversation')

  await page.reload()
  await item(page, 'Done, it is changed.').waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('group', { name: 'How was your conversation?' }).count(), 0, 'not asked again')
})

t.test("the workspace's branding, greeting and pre-chat form from the portal; the frame's color wins", async (t) => {
  const scope = await freshScope('wbrand')
  const put = await api.put(
    '/api/security/config/workspace',
    {
      portal: {
        brand_name: 'Acme Help',
        primary_color: '#0a7d33',
        widget: { prechat: 'name_email', greeting: 'Welcome to Acme!' },
      },
      change_ref: `W-${kit.suffix}`,
      reason: 'widget set-up',
    },
    kit.svc(scope),
  )
  must(put, 200, "the workspace's widget settings")
  await until('the portal with the widget settings', async () => {
    const r = await api.get(`/public/portal/config?tenant_id=${scope.tenant_id}&workspace_id=${scope.workspace_id}`)
    return r.body?.widget?.prechat === 'name_email' ? r : undefined
  })

  const context = await browser.newContext({ baseURL: system.url })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await page.goto(frameUrl(scope))
  await page.getByRole('heading', { name: 'Chat with Acme Help' }).waitFor({ timeout: WAIT_MS })
  const header = page.getByRole('banner')
  t.equal(
    await header.evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor),
    'rgb(10, 125, 51)',
    "the workspace's colour",
  )
  await page.getByRole('heading', { name: 'Before we start' }).waitFor({ timeout: WAIT_MS })
  t.equal(await composer(page).count(), 0, 'no composer before the pre-chat form')
  await checkAxe(t, page, 'the pre-chat form')
  await page.getByLabel('Name').fill('Pat')
  await page.getByLabel('Email').fill('pat@example.com')
  await page.getByRole('button', { name: 'Start chat' }).click()
  await item(page, 'Welcome to Acme!').waitFor({ timeout: WAIT_MS })
  await say(page, 'Do you ship to Norway?')
  const id = await conversationOf(scope, 'Do you ship to Norway?')
  const first = rows(must(await api.get(`/api/omni/sessions/${id}/messages`, kit.svc(scope)), 200, 'messages')).find(
    (m: any) => m.content === 'Do you ship to Norway?',
  )
  t.match(first.metadata, { visitor: { name: 'Pat', email: 'pat@example.com' } }, 'the form travels with it')

  const tinted = await context.newPage()
  await tinted.goto(frameUrl(scope, { color: '#aa0000' }))
  await composer(tinted).waitFor({ timeout: WAIT_MS })
  t.equal(
    await tinted.getByRole('banner').evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor),
    'rgb(170, 0, 0)',
    'the color of the frame URL overrides the portal',
  )
})

t.test('nobody online: the away message and "leave a message", which becomes a ticket', async (t) => {
  const scope = await freshScope('woff', { offline: true })
  const context = await browser.newContext({ baseURL: system.url })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await page.goto(frameUrl(scope))
  const form = page.getByRole('form', { name: 'Leave a message' })
  await form.waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('heading', { name: 'We are offline' }).count(), 1, 'the away view')
  await checkAxe(t, page, 'the away view')
  await form.getByLabel('Name').fill('Olga')
  await form.getByLabel('Email').fill('olga@example.com')
  await form.getByLabel('Your message').fill('Please call me back about order 9000.')
  await form.getByRole('button', { name: 'Send message' }).click()
  await page.getByRole('status').filter({ hasText: 'we have your message' }).waitFor({ timeout: WAIT_MS })
  const ticket = await until('the ticket', async () => {
    const r = must(await api.get('/api/tickets', kit.svc(scope)), 200, 'tickets')
    return rows(r).find((x: any) => JSON.stringify(x).includes('order 9000'))
  })
  t.ok(ticket, 'the message is a ticket the agents see')

  // the assistant stays at hand
  await page.getByRole('button', { name: 'Chat with our assistant instead' }).click()
  await composer(page).waitFor({ timeout: WAIT_MS })
  t.pass('the composer after choosing the assistant')
})

t.test('a phone (390×844): the composer and the last message stay on screen', async (t) => {
  const scope = await freshScope('wphone')
  const page = await openWidget(t, scope, {
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 },
  })
  for (const n of [1, 2, 3, 4, 5, 6]) await say(page, `Line ${n} of a long story about a parcel`)
  const last = mine(page, 'Line 6 of a long story')
  const box = await last.boundingBox()
  const field = await composer(page).boundingBox()
  const send = await page.getByRole('button', { name: 'Send', exact: true }).boundingBox()
  t.ok(box && field && send, 'laid out')
  t.ok(box!.y >= 0 && box!.y + box!.height <= field!.y, 'the last message is visible above the composer')
  t.ok(field!.y + field!.height <= 844 && send!.x + send!.width <= 390, 'the composer and Send fit the screen')
  await checkAxe(t, page, 'the widget on a phone')
})

t.test('Simplified Chinese (locale=zh-CN)', async (t) => {
  const scope = await freshScope('wzh')
  const context = await browser.newContext({ baseURL: system.url })
  t.teardown(() => context.close())
  const page = await context.newPage()
  await page.goto(frameUrl(scope, { locale: 'zh-CN' }))
  await composer(page, '消息').waitFor({ timeout: WAIT_MS })
  await composer(page, '消息').fill('你好，我的订单在哪里？')
  await page.getByRole('button', { name: '发送' }).click()
  await log(page, '消息')
    .getByRole('listitem')
    .filter({ hasText: '你好，我的订单在哪里？' })
    .waitFor({ timeout: WAIT_MS })
  await page.getByRole('button', { name: '转人工客服' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.evaluate(() => (globalThis as any).document.documentElement.lang), 'zh-CN', 'lang is zh-CN')
  await checkAxe(t, page, 'the widget in Chinese')
})

t.test('through a host page on another origin: opened by the loader, unread counted to it while closed', async (t) => {
  const scope = await freshScope('whost')
  const { agent, token } = await agentWithToken(scope, 'hugo')
  // the host: 127.0.0.1 serves the gateway, "localhost" this page — another origin
  const host = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(
      `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>` +
        `<script src="${system.url}/widget.js" data-tenant="${scope.tenant_id}" data-workspace="${scope.workspace_id}" data-locale="en" async></script>` +
        '</body></html>',
    )
  })
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise((r) => host.close(r)))
  const hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`

  const context = await browser.newContext()
  t.teardown(() => context.close())
  const page = await context.newPage()
  // what the frame tells the host page (the loader listens too; this only records)
  await page.addInitScript(() => {
    const g = globalThis as any
    g.__fromFrame = []
    g.addEventListener('message', (e: any) => g.__fromFrame.push({ origin: e.origin, data: e.data }))
  })
  await page.goto(hostUrl)
  // the launcher lives in a closed shadow root: reached as a keyboard user does
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  const frame = await until('the chat frame', async () => page.frames().find((f) => f.url().includes('/widget/')))
  await frame.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: WAIT_MS })
  await frame.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello from the shop page')
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await frame
    .getByRole('listitem')
    .filter({ hasText: 'You: Hello from the shop page' })
    .filter({ hasNotText: 'Sending…' })
    .waitFor({ timeout: WAIT_MS })
  const id = await conversationOf(scope, 'Hello from the shop page')
  await assign(scope, id, agent)

  // the frame's own close button: the loader closes, the frame counts what comes next as unread
  await frame.getByRole('button', { name: 'Close chat' }).click()
  await reply(id, token, 'Welcome! How can I help?')
  const unread = await until('an unread count sent to the host page', async () => {
    const got: any[] = await page.evaluate(() => (globalThis as any).__fromFrame)
    return got.find((m) => m.data?.type === 'switchboard:unread' && m.data.count >= 1)
  })
  t.equal(unread.origin, new URL(system.url).origin, "from the gateway's origin")
  const sent: any[] = await page.evaluate(() => (globalThis as any).__fromFrame)
  t.ok(
    sent.some((m) => m.data?.type === 'switchboard:ready') && sent.some((m) => m.data?.type === 'switchboard:close'),
    'ready and close were told to the loader',
  )

  // reopened from the launcher (the loader gave it the focus back): the count goes back to 0, the reply is there
  await page.keyboard.press('Enter')
  await until('the unread count cleared', async () => {
    const got: any[] = await page.evaluate(() => (globalThis as any).__fromFrame)
    const counts = got.filter((m) => m.data?.type === 'switchboard:unread').map((m) => m.data.count)
    return counts.length > 1 && counts[counts.length - 1] === 0 && Math.max(...counts) >= 1 ? counts : undefined
  })
  await frame.getByRole('listitem').filter({ hasText: 'Welcome! How can I help?' }).waitFor({ timeout: WAIT_MS })
  t.pass('reopened: the reply shows and nothing is unread')
  await checkAxe(t, page, 'the host page with the widget')
})
