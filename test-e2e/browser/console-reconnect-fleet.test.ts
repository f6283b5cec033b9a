// The console's reconnect against the fleet (PostgreSQL, Redis, NATS; child processes) with two realtime-voice (hub)
// replicas behind one gateway and one replica of the other services (statistics and audit left out). The agent has a customer's conversation open in
// Chromium; the hub replica holding the console's socket (found by asking each replica for its own socket counts) is
// killed with SIGKILL. While the console is reconnecting, a supervisor (another agent of the workspace) replies
// through the API and the customer, whose socket is on the surviving replica, writes. The console shows
// "Reconnecting…", comes back through the gateway to the survivor on its own backoff (no reload, no `online`
// event), then "Reconnected" and "Connected"; both messages are in the view exactly once each, in order, and the
// inbox row shows the customer's last words. Every wait is on a role, a text or a frame: no sleeps, no retries.
import type { Page } from 'playwright-core'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { conversationsKit, hubClient, must, type Scope } from '../harness/conversations-kit.ts'
import { until } from '../harness/http.ts'
import { selectedModes } from '../harness/modes.ts'
import { type Frame, openSocket, type RealtimeSocket } from '../harness/realtime-kit.ts'
import { consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

// E2E_MODES=embedded narrows a local run: this file is about the fleet only
const skip = selectedModes().includes('fleet') ? false : 'E2E_MODES leaves the fleet out'
// a fleet starts in 1–3.5 min on a two-core machine loaded by other suites: far more than the suite's 120 s default
t.setTimeout(480_000)

type Kind = 'visitor' | 'customer' | 'console' | 'service'

const thread = (page: Page) => page.getByRole('log', { name: 'Messages' })
const list = (page: Page) => page.getByRole('listbox', { name: 'Conversations' })
const status = (page: Page) => page.getByRole('status', { name: 'Connection' })
const says = (content: string) => (f: Frame) => f.data?.content === content

/**
 * Lets the test hold the page's reconnects: while held, a new socket is pointed at a path of the same origin that
 * refuses the upgrade, so it fails as a refused reconnect does (error, close); open sockets are left alone — the
 * replica's death is what drops the console's. (The harness's instrumentSockets points held sockets at another
 * port, which the console's CSP blocks without a close event: the console then waits for an `online` event.)
 * Released, the console's own backoff reconnects; no `online` event is sent.
 */
async function holdableSockets(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as any
    const Native = g.WebSocket
    g.__socketsHeld = false
    g.WebSocket = class extends Native {
      constructor(url: string, protocols?: string | string[]) {
        super(g.__socketsHeld ? url.replace('/api/v1/ws', '/api/v1/ws-held') : url, protocols)
      }
    }
  })
}

const holdReconnects = (page: Page, held: boolean) =>
  page.evaluate((held) => {
    ;(globalThis as any).__socketsHeld = held
  }, held)

t.test(
  'the hub replica under the console is killed: reconnect, nothing missed or doubled [fleet]',
  { skip },
  async (t) => {
    const started = Date.now()
    // statistics and audit serve nothing the console's conversation page asks for: left out to start sooner
    const system = await consoleSystem(t, 'fleet', {
      replicas: 1,
      replicasOf: { 'realtime-voice': 2 },
      without: ['statistics', 'audit'],
      liveTimeoutMs: 180_000,
    })
    t.comment(`fleet (2 hub replicas, 1 of every other unit) ready in ${Date.now() - started} ms`)
    const hubUrls = system.serviceUrls['realtime-voice']!
    t.equal(hubUrls.length, 2, 'two hub replicas')
    t.equal(system.serviceUrls.conversations!.length, 1, 'one replica of the other services')
    t.equal(system.gatewayUrls.length, 1, 'one gateway')
    const browser = await launchBrowser(t)

    const kit = await conversationsKit(system)
    const scope: Scope = kit.freshScope('rcfleet')
    const staff = kit.svc(scope)
    const alice = await kit.agent(scope, 'alice', { online: true })
    await kit.onlineAgents(scope, 1)
    // another agent of the workspace (identity makes the agent record with the user), a supervisor: it may write in a
    // conversation assigned to someone else
    const samName = `sam_${kit.suffix}`
    const samPassword = `Pw-${samName}-0123456789`
    must(
      await kit.api.post(
        '/api/security/users',
        { username: samName, email: `${samName}@e2e.example.com`, role: 'supervisor', password: samPassword },
        staff,
      ),
      201,
      'the supervisor',
    )
    const samToken = (await login(kit.api, samName, samPassword)).token
    const carol = await kit.customer(scope, 'carol')
    const carolToken = (await login(kit.api, carol.username, carol.password)).token

    /** Each replica's own count of sockets of `kind` in the scope (asked of the replica itself, not the gateway). */
    const replicaIds: string[] = []
    const counts = async (kind: Kind) => {
      const out: number[] = []
      for (const [i, url] of hubUrls.entries()) {
        const s = must(await hubClient(url, system.env.INTERNAL_SECRET!, scope).get('/api/v1/ws/stats'), 200, 'stats')
        replicaIds[i] = s.replica
        out.push(s.by_kind[kind] as number)
      }
      return out
    }

    // the customer's conversation, assigned to Alice
    const first = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
    first.send({ type: 'text-message', data: 'My refund has not arrived.' })
    const id = (await first.next('session')).data.session_id as string
    must(await kit.api.post(`/api/omni/sessions/${id}/assign`, { agent_id: alice.user_id }, staff), 200, 'assign')
    const customerSockets = await until('the customer socket counted', async () => {
      const c = await counts('customer')
      return c[0]! + c[1]! === 1 ? c : undefined
    })
    const customerReplica = customerSockets.indexOf(1)

    // Alice's console on the conversation, its socket on one of the two replicas
    const page = await newPage(t, browser, system)
    await holdableSockets(page)
    // the page's socket attempts and the refreshes they cause, with times: reported at the end (or on a failure)
    const t0 = Date.now()
    const events: string[] = []
    const note = (what: string) => events.push(`${((Date.now() - t0) / 1000).toFixed(2)}s ${what}`)
    page.on('websocket', (ws) => {
      const where = ws.url().includes('/ws-held') ? 'held' : 'gateway'
      note(`socket opened (${where})`)
      ws.on('close', () => note(`socket closed (${where})`))
      ws.on('socketerror', (e) => note(`socket error (${where}): ${e}`))
    })
    page.on('response', (r) => {
      if (r.url().includes('/auth/refresh')) note(`refresh ${r.status()}`)
    })
    t.teardown(() => t.comment(`the console's sockets:\n${events.join('\n')}`))
    await loginAs(page, alice, `/conversations/${id}`)
    await thread(page).getByText('My refund has not arrived.').waitFor({ timeout: WAIT_MS })
    const row = list(page)
      .getByRole('option')
      .filter({ hasText: `carol ${kit.suffix}` })
    await row.filter({ hasText: 'My refund has not arrived.' }).waitFor({ timeout: WAIT_MS })
    const consoles = await until("the console's socket counted", async () => {
      const c = await counts('console')
      return c[0]! + c[1]! === 1 ? c : undefined
    })
    const doomed = consoles.indexOf(1)
    const survivor = 1 - doomed
    t.comment(`the console is on ${replicaIds[doomed]}, the customer's first socket on ${replicaIds[customerReplica]}`)

    // the customer writes from a socket on the other replica (the gateway's round robin decides: try until it lands)
    let customer: RealtimeSocket | undefined = customerReplica === survivor ? first : undefined
    for (let attempt = 1; !customer && attempt <= 6; attempt++) {
      const before = await counts('customer')
      const socket = await openSocket(system.url, { token: carolToken, via: 'protocol' }, t)
      const after = await until('the new customer socket counted', async () => {
        const c = await counts('customer')
        return c[0]! + c[1]! === before[0]! + before[1]! + 1 ? c : undefined
      })
      if (after[survivor]! > before[survivor]!) customer = socket
      else {
        socket.ws.terminate()
        await until('the stray socket gone', async () => {
          const c = await counts('customer')
          return c[0]! + c[1]! === before[0]! + before[1]! ? c : undefined
        })
      }
    }
    if (!customer) throw new Error('no customer socket landed on the surviving replica in 6 tries')
    customer.send({ type: 'join', data: { session_id: id } })
    await customer.next('session', { timeoutMs: WAIT_MS })

    // the replica under the console dies; the console's reconnects are held until both messages are written
    await holdReconnects(page, true)
    const killedUrl = await system.kill!('realtime-voice', doomed)
    note('killed')
    t.comment(`killed realtime-voice.${doomed + 1} (${killedUrl}) under the console`)
    await status(page).filter({ hasText: 'Reconnecting…' }).waitFor({ timeout: WAIT_MS })
    t.pass('the console shows it is reconnecting')

    const REPLY = 'A supervisor here: the refund left us on Tuesday.'
    const WROTE = 'Thanks, I will check my bank tomorrow.'
    must(await kit.api.post(`/api/omni/sessions/${id}/messages`, { content: REPLY }, { token: samToken }), 201, 'reply')
    await customer.take(says(REPLY), "the supervisor's reply on the customer's socket", WAIT_MS)
    customer.send({ type: 'text-message', data: WROTE })
    await customer.take(says(WROTE), "the customer's own message back (stored)", WAIT_MS)
    t.equal(await thread(page).getByText(REPLY).count(), 0, 'the reply has not reached the console while it is down')
    t.equal(await thread(page).getByText(WROTE).count(), 0, 'nor has the customer message')
    t.equal(await status(page).textContent(), 'Reconnecting…', 'still reconnecting when both were written')

    // released: the console's backoff reconnects through the gateway, which routes it to the survivor
    await holdReconnects(page, false)
    note('released')
    await status(page).filter({ hasText: 'Reconnected' }).waitFor({ timeout: WAIT_MS })
    t.pass('the console shows it reconnected')
    await thread(page).getByText(WROTE).waitFor({ timeout: WAIT_MS })
    await thread(page).getByText(REPLY).waitFor({ timeout: WAIT_MS })
    t.pass('both messages written while it was down appear without a reload')
    await row.filter({ hasText: WROTE }).waitFor({ timeout: WAIT_MS })
    t.pass("the inbox row shows the customer's last words")
    t.same(await counts('console').catch(() => undefined), undefined, 'the killed replica answers nothing')
    const live = must(
      await hubClient(hubUrls[survivor]!, system.env.INTERNAL_SECRET!, scope).get('/api/v1/ws/stats'),
      200,
      'stats of the survivor',
    )
    t.equal(live.by_kind.console, 1, "the console's new socket is on the surviving replica")

    // barrier: a live message after the resume; any repeat of what was resumed would have come before it
    customer.send({ type: 'text-message', data: 'Are you still there?' })
    await thread(page).getByText('Are you still there?').waitFor({ timeout: WAIT_MS })
    await status(page)
      .filter({ hasText: /^Connected$/ })
      .waitFor({ timeout: WAIT_MS })
    t.pass('then simply connected')
    const items = await thread(page).getByRole('listitem').allTextContents()
    const at = (text: string) => items.filter((i) => i.includes(text)).length
    t.equal(at(REPLY), 1, 'the reply is shown exactly once')
    t.equal(at(WROTE), 1, 'the customer message is shown exactly once')
    const order = ['My refund has not arrived.', REPLY, WROTE, 'Are you still there?'].map((s) =>
      items.findIndex((i) => i.includes(s)),
    )
    t.same(
      [...order].sort((a, b) => a - b),
      order,
      `in order: the first message, the reply, the customer's message, the live one (${order.join(', ')})`,
    )

    // and the console works both ways on its new socket
    await page.getByRole('textbox', { name: 'Message' }).fill('Yes, I am here.')
    await page.getByRole('button', { name: 'Send' }).click()
    await customer.take(says('Yes, I am here.'), "the console's reply after the reconnect", WAIT_MS)
    await thread(page).getByText('Yes, I am here.').waitFor({ timeout: WAIT_MS })
    t.equal(await thread(page).getByText('Yes, I am here.').count(), 1, 'shown once')
  },
)
