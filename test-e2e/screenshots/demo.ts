// The README's screenshots: the embedded system serving the built console (CONSOLE_DIR when set), a seeded demo in
// its demo workspace — customers with names, conversations in several states with their messages, one waiting in
// the queue, tickets with priority, comments and an SLA config — and the demo agent logged in through the login page
// in Debian's Chromium at 1280×800: the inbox, an open conversation and a ticket's detail, each in the light and the
// dark theme, as PNGs in docs/screenshots/; then the demo admin's Reports and Configuration (admin.ts). Run by
// scripts/screenshots.ts.
import { execFileSync } from 'node:child_process'
import { mkdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, loginAs, WAIT_MS } from '../browser/harness.ts'
import { login } from '../harness/auth.ts'
import { conversationsKit, must, type Scope } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { openSocket, type RealtimeSocket } from '../harness/realtime-kit.ts'
import { startSystem } from '../harness/system.ts'
import { createTicket } from '../harness/tickets-kit.ts'
import { adminShots, seedAdmin } from './admin.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
// SCREENSHOTS_DIR / SCREENSHOTS_WIDTH: another folder or width (e.g. 1024 to check the narrow header); the README's are
// the defaults
const OUT = process.env.SCREENSHOTS_DIR ?? `${ROOT}docs/screenshots`
const VIEWPORT = { width: Number(process.env.SCREENSHOTS_WIDTH ?? 1280), height: 800 }

// the gateway serves CONSOLE_DIR when set (testEnv passes it on); else the workspace's build, made current first
if (!process.env.CONSOLE_DIR) execFileSync('bash', ['scripts/build-console.sh'], { cwd: ROOT, stdio: 'inherit' })

// the SLA monitor looks every second (the default minute would keep the admin's reports waiting for their breaches)
const system = await startSystem('embedded', { env: { SLA_MONITOR_INTERVAL_MS: '1000' } })
const sockets: RealtimeSocket[] = []
try {
  const kit = await conversationsKit(system)
  const scope: Scope = { tenant_id: system.tenant_id, workspace_id: system.workspace_id }
  const svc = kit.svc(scope)
  const api = kit.api

  const agentToken = (await login(api, system.agent.username, system.agent.password)).token
  const asAgent = { token: agentToken }
  const me = must(await api.get('/api/v1/auth/me', asAgent), 200, 'me')
  must(await api.put('/api/agents/me/status', { status: 'online' }, asAgent), 200, 'agent online')

  let n = 0
  /** A customer with a name, an email and a login (a customer's socket needs one). */
  async function customer(name: string) {
    const username = `${name.toLowerCase().replace(/\W+/g, '.')}.${++n}`
    const password = `Pw-${username}-0123456789`
    const body = must(
      await api.post('/api/customers', { name, email: `${username}@example.com`, username, password }, svc),
      201,
      `customer ${name}`,
    )
    const token = (await login(api, username, password)).token
    return { id: body.id as string, user_id: body.user_id as string, token }
  }

  /** A colleague of the demo agent (an agent record on a user of its own). */
  async function colleague(name: string) {
    const user = await customer(name)
    const body = must(
      await api.post('/api/agents', { user_id: user.user_id, name, max_concurrent: 8, skills: [] }, svc),
      201,
      `agent ${name}`,
    )
    must(await api.post(`/api/agents/${body.id}/online`, undefined, svc), 200, `${name} online`)
    return { id: body.id as string, user_id: user.user_id }
  }

  /** A conversation a customer starts on their own socket: the socket and the session id. */
  async function conversation(who: { token: string }, first: string) {
    const socket = await openSocket(system.url, { token: who.token, via: 'protocol' })
    sockets.push(socket)
    socket.send({ type: 'text-message', data: first })
    const id = (await socket.next('session')).data.session_id as string
    return { socket, id }
  }

  const says = (socket: RealtimeSocket, content: string) =>
    socket.take((f) => f.data?.content === content, content, WAIT_MS)

  async function customerSays(c: { socket: RealtimeSocket }, content: string) {
    c.socket.send({ type: 'text-message', data: content })
    await says(c.socket, content)
  }

  async function agentSays(c: { id: string }, content: string, internal = false) {
    must(
      await api.post(`/api/omni/sessions/${c.id}/messages`, { content, ...(internal ? { internal } : {}) }, asAgent),
      201,
      'agent message',
    )
  }

  const assign = async (id: string, agentId: string) =>
    must(await api.post(`/api/omni/sessions/${id}/assign`, { agent_id: agentId }, svc), 200, 'assign')

  // a colleague whose shift starts later: with shifts kept, routing hands a queued conversation to nobody now
  const priya = await colleague('Priya Raman')
  const hour = 3_600_000
  must(
    await api.post(
      '/api/shifts',
      {
        agent_id: priya.user_id,
        shift_type: 'evening',
        start_time: new Date(Date.now() + 6 * hour).toISOString(),
        end_time: new Date(Date.now() + 14 * hour).toISOString(),
      },
      svc,
    ),
    201,
    'shift',
  )
  await kit.onlineAgents(scope, 2)

  const [maya, jonas, aiko, lucas, sofia, daniel, emma, chen] = await Promise.all(
    [
      'Maya Fischer',
      'Jonas Weber',
      'Aiko Tanaka',
      'Lucas Martin',
      'Sofia Rossi',
      'Daniel Okafor',
      'Emma Johansson',
      'Chen Wei',
    ].map(customer),
  )

  // closed: answered and done
  const s = await conversation(sofia!, 'How do I export all my order history as a spreadsheet?')
  await assign(s.id, me.id)
  await agentSays(s, 'Hi Sofia! Go to Account → Orders and choose "Export CSV" at the top right.')
  await customerSays(s, 'Found it, thanks a lot!')
  must(await api.post(`/api/omni/sessions/${s.id}/close`, {}, asAgent), 200, 'close')

  // a colleague's
  const d = await conversation(daniel!, 'Do you ship to Lagos? I could not find it in the country list.')
  await assign(d.id, priya.user_id)

  // older ones of the agent's, answered
  const c = await conversation(chen!, 'Can you issue a VAT invoice with our company details for order #47990?')
  await assign(c.id, me.id)
  await agentSays(c, 'Of course. Please send the company name, address and VAT ID and we will reissue it today.')
  const e = await conversation(emma!, 'Is the 30-day return window counted from delivery or from the order date?')
  await assign(e.id, me.id)
  await agentSays(e, 'From the delivery date, Emma — you have until the 18th of next month.')
  await customerSays(e, 'Perfect, thanks!')

  // answered, waiting for the customer
  const a = await conversation(aiko!, 'The Android app logs me out every few minutes since the last update.')
  await assign(a.id, me.id)
  await agentSays(a, 'Sorry about that, Aiko. Could you tell me the app version (Settings → About)?')
  await customerSays(a, 'It says 5.12.0 (build 881).')

  // waiting in the queue
  const l = await conversation(lucas!, 'Hello, my account is locked after too many login attempts.')
  const queued = must(await api.post('/api/session-transfer/to-human', { session_id: l.id }, svc), 200, 'to the queue')
  if (!queued.is_waiting) throw new Error('the queued conversation was routed to someone')

  // unread: the customer wrote twice, nobody answered yet
  const j = await conversation(jonas!, 'Can I change the billing address on invoice INV-2291?')
  await assign(j.id, me.id)
  await customerSays(j, 'We moved offices last month, the new address is Schillerstraße 12, Berlin.')

  // the one opened: a full exchange with an internal note
  const m = await conversation(
    maya!,
    "Hi, my order #48213 hasn't arrived. Tracking says it's been in Leipzig since Tuesday.",
  )
  await assign(m.id, me.id)
  await agentSays(m, "Hi Maya, sorry for the wait — I'm checking with the carrier right now.")
  await customerSays(m, 'Thanks! I really need it before Friday, it is a birthday present.')
  await agentSays(m, 'Carrier confirms a sorting backlog at the Leipzig hub. Offer an express reshipment.', true)
  await agentSays(
    m,
    "The carrier confirmed a delay at their Leipzig hub. If it hasn't reached you by Thursday noon, we'll send a replacement by express at no cost.",
  )
  await customerSays(m, 'That sounds great, thank you for sorting it out!')
  // the agent has read Maya's conversation (the view marks it); Jonas' stays unread

  // tickets: an SLA config for high priority, a ticket with comments, and a few more for the list
  must(
    await api.post(
      '/api/sla/configs',
      { name: 'High priority', priority: 'high', first_response_time: 60, resolution_time: 480, escalation_time: 240 },
      svc,
    ),
    201,
    'sla config',
  )
  const ticket = must(
    await createTicket(
      api,
      {
        title: 'Replacement for order #48213 (delayed in transit)',
        customer_id: maya!.id,
        session_id: m.id,
        priority: 'high',
        source: 'chat',
        description:
          "Parcel stuck at the carrier's Leipzig hub since Tuesday. Customer needs it before Friday; reship by express if not delivered by Thursday noon.",
      },
      svc,
    ),
    201,
    'ticket',
  )
  await until('tickets to know the agent', async () => {
    const res = await api.post(`/api/tickets/${ticket.id}/assign`, { agent_id: me.id }, svc)
    if (res.status === 400 && res.body?.code === 'TICKETS_UNKNOWN_AGENT') return undefined
    return must(res, 200, 'assign ticket')
  })
  must(await api.put(`/api/tickets/${ticket.id}`, { status: 'in_progress' }, asAgent), 200, 'in progress')
  for (const content of [
    'Asked the carrier for a trace; their reference is DE-LPZ-77120.',
    'Warehouse has a replacement unit reserved, ready to ship express on Thursday morning.',
  ]) {
    must(await api.post(`/api/tickets/${ticket.id}/comments`, { content }, asAgent), 201, 'comment')
  }
  for (const [title, who, priority] of [
    ['Billing address change on INV-2291', jonas!, 'normal'],
    ['Android app logs out every few minutes', aiko!, 'urgent'],
    ['Shipping to Nigeria', daniel!, 'low'],
  ] as const) {
    must(await createTicket(api, { title, customer_id: who.id, priority }, svc), 201, `ticket ${title}`)
  }

  await seedAdmin(system, api, svc, maya!.id, me.id)

  mkdirSync(OUT, { recursive: true })
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    for (const theme of ['light', 'dark'] as const) {
      const options = {
        baseURL: system.url,
        viewport: VIEWPORT,
        deviceScaleFactor: 1,
        colorScheme: theme,
        reducedMotion: 'reduce',
      } as const
      const context = await browser.newContext(options)
      const page = await context.newPage()
      await loginAs(page, system.agent)
      const list = page.getByRole('listbox', { name: 'Conversations' })
      await list.getByRole('option').filter({ hasText: 'Maya Fischer' }).waitFor({ timeout: WAIT_MS })
      await list.getByRole('option').filter({ hasText: 'Jonas Weber' }).waitFor({ timeout: WAIT_MS })
      await shot(page, `inbox-${theme}`)

      await list.getByRole('option').filter({ hasText: 'Maya Fischer' }).click()
      await page.getByRole('log', { name: 'Messages' }).getByText('That sounds great').waitFor({ timeout: WAIT_MS })
      await page.getByRole('complementary', { name: 'Customer' }).getByText('Maya Fischer').first().waitFor({
        timeout: WAIT_MS,
      })
      await shot(page, `conversation-${theme}`)

      await page.getByRole('link', { name: 'Tickets' }).click()
      await page.getByRole('link', { name: /^Replacement for order/ }).click()
      await page.getByRole('heading', { level: 1, name: /^Replacement for order/ }).waitFor({ timeout: WAIT_MS })
      await page.getByText('ready to ship express').waitFor({ timeout: WAIT_MS })
      await page.getByRole('heading', { name: 'Violations' }).waitFor({ timeout: WAIT_MS })
      await page.getByText(/…$/).first().waitFor({ state: 'detached', timeout: WAIT_MS })
      await shot(page, `ticket-${theme}`)
      await context.close()
      await adminShots(browser, options, system, theme, shot)
    }
  } finally {
    await browser.close()
  }
} finally {
  for (const socket of sockets) socket.ws.terminate()
  await system.close()
}

async function shot(page: Page, name: string) {
  // no caret or hover state in the picture; fonts and lazy chunks settled
  await page.mouse.move(0, 0)
  await page.evaluate(async () => {
    const d = (globalThis as any).document
    d.activeElement?.blur?.()
    await d.fonts.ready
  })
  const path = `${OUT}/${name}.png`
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' })
  // lossless recompression where Debian's optipng is installed (Chromium's encoder favours speed: ~20% smaller)
  try {
    execFileSync('optipng', ['-quiet', '-o2', path])
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  console.log(`${path.startsWith(ROOT) ? path.slice(ROOT.length) : path}  ${Math.round(statSync(path).size / 1024)} KB`)
}
