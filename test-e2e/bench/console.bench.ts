// The agent console in Debian's Chromium against the embedded default (`npm run bench -- console`; README "console").
// 1. First load, CPU throttled ×4, cold cache (a fresh context per run): bytes on the wire (as served: brotli) and
//    time to interactive of the login page and, after "Log in", of the inbox — beside a minimal static login page
//    from a plain node:http server (the floor: no app code), runs interleaved.
// 2. With `conversations` (50,000) conversations assigned to the agent (seeded straight into conversations' SQLite
//    database, cloned from one made through the API), every page of them loaded into the inbox: customer messages
//    posted as the hub posts them, and in the page the time from the hub frame's arrival (a listener the page's
//    WebSocket gets before the console's) to the row's DOM update (a MutationObserver), the next frame and the
//    task after it. Beside it, the same on a plain page: a 50,000-item array and one DOM row updated per frame.
//    Also the list's render from a tab switch with 50,000 rows cached, and frame times while scrolling.
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { newId } from '@switchboard/platform'
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, ensureConsoleBuilt, submitLogin } from '../browser/harness.ts'
import { conversationsKit, must } from '../harness/conversations-kit.ts'
import { type System, startSystem } from '../harness/system.ts'
import { fmt, percentile } from './lib.ts'

export interface ConsoleBenchOptions {
  /** first-load runs of each page (console and floor, interleaved) */
  loads: number
  /** CPU throttling rate of the first load */
  throttle: number
  conversations: number
  /** live events per pass */
  events: number
  /** CPU throttling rates of the live passes (1 = none) */
  liveThrottles: number[]
}

export function consoleBenchOptions(): ConsoleBenchOptions {
  return {
    loads: Number(process.env.BENCH_CONSOLE_LOADS ?? 7),
    throttle: Number(process.env.BENCH_CONSOLE_THROTTLE ?? 4),
    conversations: Number(process.env.BENCH_CONSOLE_CONVERSATIONS ?? 50_000),
    events: Number(process.env.BENCH_CONSOLE_EVENTS ?? 300),
    liveThrottles: (process.env.BENCH_CONSOLE_LIVE_THROTTLES ?? '1,4').split(',').map(Number),
  }
}

interface Stats {
  n: number
  p50: number
  p95: number
  max: number
}

function stats(values: number[]): Stats {
  const round = (v: number) => Math.round(v * 10) / 10
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    max: round(values.length ? Math.max(...values) : Number.NaN),
  }
}

const show = (s: Stats, unit = 'ms') =>
  `p50 ${fmt(s.p50)} ${unit}, p95 ${fmt(s.p95)} ${unit}, max ${fmt(s.max)} ${unit}`

// ---------------------------------------------------------------------------------------------------------------
// What runs in the page before its own script (an init script: the page's CSP does not apply to it).

/**
 * `__bench.marks` (ms since navigation start): `loginField` — the login form's "Username" input is in the DOM and
 * enabled; `loginInteractive` — the first task after that (a key typed then is handled by then); `submit` — the form
 * sent; `rows` — the first conversation row in the listbox; `inboxInteractive` — the first task after that;
 * `connected` — the hub's "Connected". Live frames: a WebSocket `message` listener registered in the socket's
 * constructor (before the page's own handler) notes the arrival of a frame whose content is `bench-<n>-end`; the
 * MutationObserver sees the row `#inbox-row-<session>` show that text; then a requestAnimationFrame (the next
 * frame) and a task after it (that frame's rendering done); each reported through `__benchRow`.
 */
function instrument() {
  const g = globalThis as any
  const { document, requestAnimationFrame, MutationObserver, MessageChannel } = g
  const bench: any = { marks: {}, pending: new Map() }
  g.__bench = bench
  const now = () => performance.now()
  const mark = (name: string) => {
    if (bench.marks[name] === undefined) bench.marks[name] = now()
  }
  const afterTask = (fn: () => void) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = fn
    channel.port2.postMessage(0)
  }
  const Native = g.WebSocket
  g.WebSocket = class extends Native {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols)
      this.addEventListener('message', (event: MessageEvent) => {
        const t0 = now()
        if (typeof event.data !== 'string') return
        const token = /"content":"(bench-\d+-end)"/.exec(event.data)?.[1]
        if (!token) return
        const sid = /"session_id":"([^"]+)"/.exec(event.data)?.[1]
        bench.pending.set(token, { token, sid, t0 })
      })
    }
  }
  document.addEventListener('submit', () => mark('submit'), { capture: true })
  const usernameField = (): any => {
    for (const label of document.querySelectorAll('label')) {
      if (label.firstElementChild?.textContent?.trim() === 'Username') return label.querySelector('input')
    }
    return null
  }
  const check = () => {
    const m = bench.marks
    if (m.loginField === undefined) {
      const input = usernameField()
      if (input && !input.disabled) {
        mark('loginField')
        afterTask(() => mark('loginInteractive'))
      }
    }
    if (m.submit !== undefined && m.rows === undefined && document.querySelector('[role=listbox] [role=option]')) {
      mark('rows')
      afterTask(() => mark('inboxInteractive'))
    }
    if (m.submit !== undefined && m.connected === undefined) {
      const status = document.querySelector('[aria-label=Connection]')
      if (status?.textContent?.includes('Connected')) mark('connected')
    }
    if (bench.pending.size === 0) return
    const t1 = now()
    for (const p of bench.pending.values()) {
      const row = document.getElementById(`inbox-row-${p.sid}`)
      if (!row?.textContent?.includes(p.token)) continue
      bench.pending.delete(p.token)
      const atTop = row.style.transform === 'translateY(0px)' || row.dataset.top === '1'
      requestAnimationFrame(() => {
        const t2 = now()
        afterTask(() => {
          g.__benchRow?.({ token: p.token, dom: t1 - p.t0, frame: t2 - p.t0, painted: now() - p.t0, atTop })
        })
      })
    }
  }
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  })
}

// ---------------------------------------------------------------------------------------------------------------
// The floor: a plain node:http server — a static login page, and a plain list page fed over a WebSocket.

const FLOOR_LOGIN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Log in</title></head><body>
<main><h1>Log in</h1><form><label><span>Username</span><input name="username" autocomplete="username"></label>
<label><span>Password</span><input name="password" type="password"></label><button>Log in</button></form></main>
</body></html>`

/** 50,000 items in an array, 20 DOM rows; a frame moves its item to the head and rewrites the first row. */
const floorList = (count: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>List</title>
<style>#list div{height:80px;border-bottom:1px solid #ccc;overflow:hidden}</style></head><body><div id="list"></div>
<script>
const items = Array.from({ length: ${count} }, (_, i) => ({ id: 'c-' + i, subject: 'Order question ' + i,
  preview: 'Seeded message ' + i, last_activity_at: new Date(Date.now() - i * 1000).toISOString(), unread_count: 1 }))
const list = document.getElementById('list')
for (let i = 0; i < 20; i++) {
  const el = document.createElement('div')
  el.id = 'inbox-row-' + items[i].id
  el.textContent = items[i].subject + ' ' + items[i].preview
  list.append(el)
}
const ws = new WebSocket('ws://' + location.host + '/ws')
ws.onopen = () => { document.title = 'open' }
ws.onmessage = (event) => {
  const frame = JSON.parse(event.data)
  const i = items.findIndex((x) => x.id === frame.session_id)
  if (i < 0) return
  const row = { ...items[i], preview: frame.data.content, last_activity_at: frame.data.created_at,
    unread_count: items[i].unread_count + 1 }
  items.splice(i, 1)
  items.unshift(row)
  const el = list.firstElementChild
  el.id = 'inbox-row-' + row.id
  el.dataset.top = '1'
  el.textContent = row.subject + ' ' + row.preview
}
</script></body></html>`

interface FloorServer {
  url: string
  /** a text frame to every socket open */
  send(text: string): void
  close(): Promise<void>
}

/** A text frame as a server sends it (unmasked, RFC 6455 §5.2). */
function wsFrame(text: string): Buffer {
  const payload = Buffer.from(text)
  const n = payload.length
  let header: Buffer
  if (n < 126) header = Buffer.from([0x81, n])
  else if (n < 65_536) {
    header = Buffer.alloc(4)
    header[0] = 0x81
    header[1] = 126
    header.writeUInt16BE(n, 2)
  } else {
    header = Buffer.alloc(10)
    header[0] = 0x81
    header[1] = 127
    header.writeBigUInt64BE(BigInt(n), 2)
  }
  return Buffer.concat([header, payload])
}

async function startFloor(count: number): Promise<FloorServer> {
  const list = floorList(count)
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    const body = req.url === '/list' ? list : FLOOR_LOGIN
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
    res.end(body)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const key = req.headers['sec-websocket-key'] ?? ''
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64')
    socket.setNoDelay(true)
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    )
    socket.on('data', () => {})
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    sockets.add(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    send: (text) => {
      const frame = wsFrame(text)
      for (const s of sockets) s.write(frame)
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Bytes on the wire, from the DevTools protocol's Network events (what the page itself fetched; WebSocket frames
// are not counted).

interface Wire {
  /** bytes received so far (encodedDataLength: compressed bodies plus headers), requests finished */
  bytes(): number
  requests(): number
  /** content-encoding of each script/style/document answered so far, by URL path */
  encodings(): Record<string, string>
  /** resolves once nothing has been in flight for `quietMs` */
  quiet(quietMs?: number): Promise<void>
}

async function watchWire(cdp: CDPSession): Promise<Wire> {
  let bytes = 0
  let requests = 0
  const inFlight = new Set<string>()
  const encodings: Record<string, string> = {}
  let lastChange = performance.now()
  cdp.on('Network.requestWillBeSent', (e) => {
    inFlight.add(e.requestId)
    lastChange = performance.now()
  })
  cdp.on('Network.responseReceived', (e) => {
    if (['Document', 'Script', 'Stylesheet'].includes(e.type)) {
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]))
      encodings[new URL(e.response.url).pathname] = String(headers['content-encoding'] ?? 'identity')
    }
  })
  cdp.on('Network.loadingFinished', (e) => {
    if (inFlight.delete(e.requestId)) {
      bytes += e.encodedDataLength
      requests++
    }
    lastChange = performance.now()
  })
  cdp.on('Network.loadingFailed', (e) => {
    inFlight.delete(e.requestId)
    lastChange = performance.now()
  })
  // a WebSocket's handshake is a request that never finishes: not in flight for `quiet`
  cdp.on('Network.webSocketCreated', (e) => inFlight.delete(e.requestId))
  cdp.on('Network.webSocketWillSendHandshakeRequest', (e) => inFlight.delete(e.requestId))
  await cdp.send('Network.enable')
  return {
    bytes: () => bytes,
    requests: () => requests,
    encodings: () => ({ ...encodings }),
    async quiet(quietMs = 500) {
      const deadline = performance.now() + 30_000
      while (inFlight.size > 0 || performance.now() - lastChange < quietMs) {
        if (performance.now() > deadline) throw new Error(`network not quiet: ${inFlight.size} requests in flight`)
        await delay(50)
      }
    },
  }
}

async function throttled(context: BrowserContext, page: Page, rate: number): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
  return cdp
}

const marks = (page: Page) => page.evaluate(() => ({ ...(globalThis as any).__bench.marks }) as Record<string, number>)

async function waitMark(page: Page, name: string) {
  await page.waitForFunction((n) => (globalThis as any).__bench.marks[n] !== undefined, name, { timeout: 60_000 })
}

interface LoadRun {
  login_field_ms: number
  login_tti_ms: number
  login_bytes: number
  login_requests: number
  inbox_rows_ms?: number
  inbox_tti_ms?: number
  connected_ms?: number
  inbox_bytes?: number
  inbox_requests?: number
  encodings: Record<string, string>
}

/** One cold load of the console: the login page, then the agent's login and the inbox. */
async function consoleLoad(
  browser: Browser,
  system: System,
  who: { username: string; password: string },
  rate: number,
) {
  const context = await browser.newContext({ baseURL: system.url })
  try {
    const page = await context.newPage()
    await page.addInitScript(instrument)
    const cdp = await throttled(context, page, rate)
    const wire = await watchWire(cdp)
    await page.goto('/')
    await waitMark(page, 'loginInteractive')
    await wire.quiet()
    const login = await marks(page)
    const loginBytes = wire.bytes()
    const loginRequests = wire.requests()
    await submitLogin(page, who)
    await waitMark(page, 'inboxInteractive')
    await waitMark(page, 'connected')
    await wire.quiet()
    const m = await marks(page)
    return {
      login_field_ms: login.loginField!,
      login_tti_ms: login.loginInteractive!,
      login_bytes: loginBytes,
      login_requests: loginRequests,
      inbox_rows_ms: m.rows! - m.submit!,
      inbox_tti_ms: m.inboxInteractive! - m.submit!,
      connected_ms: m.connected! - m.submit!,
      inbox_bytes: wire.bytes() - loginBytes,
      inbox_requests: wire.requests() - loginRequests,
      encodings: wire.encodings(),
    } satisfies LoadRun
  } finally {
    await context.close()
  }
}

/** One cold load of the floor's static login page. */
async function floorLoad(browser: Browser, floor: FloorServer, rate: number): Promise<LoadRun> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.addInitScript(instrument)
    const cdp = await throttled(context, page, rate)
    const wire = await watchWire(cdp)
    await page.goto(`${floor.url}/login`)
    await waitMark(page, 'loginInteractive')
    await wire.quiet()
    const m = await marks(page)
    return {
      login_field_ms: m.loginField!,
      login_tti_ms: m.loginInteractive!,
      login_bytes: wire.bytes(),
      login_requests: wire.requests(),
      encodings: wire.encodings(),
    }
  } finally {
    await context.close()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Seeding: one conversation through the API (a customer's first message, assigned to the agent), cloned straight
// into conversations' own database — as many rows as the API would have written, each with its own ids and times.

interface Seeded {
  agent: { username: string; password: string; user_id: string }
  /** newest activity first: ids[0] is the newest */
  sessions: { id: string; customer_id: string }[]
  post(sessionId: string, customerId: string, content: string): Promise<void>
  seconds: number
}

async function seed(system: System, count: number): Promise<Seeded> {
  const started = performance.now()
  const kit = await conversationsKit(system)
  const scope = kit.freshScope('benchconsole')
  const agent = await kit.agent(scope, 'agent', { online: true })
  await kit.onlineAgents(scope, 1)
  const customers: { user_id: string }[] = []
  for (let i = 0; i < 5; i++) customers.push(await kit.customer(scope, `customer${i}`))
  const hub = kit.hub(scope)
  const { session } = await hub.open('Where is my parcel?', customers[0]!.user_id)
  must(
    await kit.api.post(`/api/omni/sessions/${session.id}/assign`, { agent_id: agent.user_id }, kit.svc(scope)),
    200,
    'assign the template conversation',
  )
  const database = await system.serviceDatabase('conversations')
  const sessions: Seeded['sessions'] = []
  try {
    const db = database.db
    const template = await db.selectFrom('sessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow()
    const messages = await db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', session.id)
      .orderBy('seq')
      .execute()
    // a minute ago and older, one second apart: live messages are newer than any of them
    const base = Date.now() - 60_000
    const BATCH = 500
    await db.transaction().execute(async (trx) => {
      for (let from = 0; from < count; from += BATCH) {
        const rows: any[] = []
        const msgs: any[] = []
        for (let i = from; i < Math.min(count, from + BATCH); i++) {
          const at = new Date(base - i * 1000).toISOString()
          const id = newId()
          const customer = customers[i % customers.length]!
          rows.push({
            ...template,
            id,
            customer_id: customer.user_id,
            subject: `Order question ${i}`,
            started_at: at,
            last_message_at: at,
            updated_at: at,
          })
          messages.forEach((m, k) => {
            const last = k === messages.length - 1
            msgs.push({ ...m, id: newId(), session_id: id, created_at: at, content: last ? `Seeded ${i}` : m.content })
          })
          sessions.push({ id, customer_id: customer.user_id })
        }
        await trx.insertInto('sessions').values(rows).execute()
        for (let k = 0; k < msgs.length; k += BATCH)
          await trx
            .insertInto('messages')
            .values(msgs.slice(k, k + BATCH))
            .execute()
      }
    })
  } finally {
    await database.close()
  }
  return {
    agent: { username: agent.username, password: agent.password, user_id: agent.user_id },
    sessions,
    seconds: (performance.now() - started) / 1000,
    async post(sessionId, customerId, content) {
      must(
        await hub.post(`/internal/sessions/${sessionId}/messages`, {
          sender: 'customer',
          customer_id: customerId,
          content,
        }),
        201,
        'a customer message',
      )
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Live events: sent one at a time, the next once the page reported the last (or 10 s passed: lost).

interface RowReport {
  token: string
  dom: number
  frame: number
  painted: number
  atTop: boolean
}

interface LivePass {
  throttle: number
  events: number
  lost: number
  not_at_top: number
  dom_ms: Stats
  next_frame_ms: Stats
  painted_ms: Stats
}

async function reporter(page: Page) {
  const waiting = new Map<string, (r: RowReport) => void>()
  await page.exposeFunction('__benchRow', (r: RowReport) => waiting.get(r.token)?.(r))
  return async (token: string, send: () => Promise<void> | void): Promise<RowReport | undefined> => {
    const got = new Promise<RowReport>((resolve) => waiting.set(token, resolve))
    await send()
    const r = await Promise.race([got, delay(10_000).then(() => undefined)])
    waiting.delete(token)
    return r
  }
}

async function livePass(
  name: string,
  throttle: number,
  events: number,
  cdp: CDPSession,
  run: (i: number, token: string) => Promise<RowReport | undefined>,
): Promise<LivePass> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle })
  const reports: RowReport[] = []
  let lost = 0
  await profiled(cdp, `${name}-live-x${throttle}`, async () => {
    for (let i = 0; i < events; i++) {
      const r = await run(i, `bench-${throttle}${String(i).padStart(5, '0')}-end`)
      if (r) reports.push(r)
      else lost++
      // let the page settle: events a few frames apart, as a busy inbox has them
      await delay(30)
    }
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  return {
    throttle,
    events,
    lost,
    not_at_top: reports.filter((r) => !r.atTop).length,
    dom_ms: stats(reports.map((r) => r.dom)),
    next_frame_ms: stats(reports.map((r) => r.frame)),
    painted_ms: stats(reports.map((r) => r.painted)),
  }
}

/** A CPU profile of the page while `fn` runs, when BENCH_CONSOLE_PROFILE_DIR names a directory for it. */
async function profiled<T>(cdp: CDPSession, name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CONSOLE_PROFILE_DIR
  if (!dir) return fn()
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  const result = await fn()
  const { profile } = await cdp.send('Profiler.stop')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile))
  console.log(`  CPU profile of the page: ${join(dir, `${name}.cpuprofile`)}`)
  return result
}

/** Frame intervals while the list is scrolled by the mouse wheel, and long tasks meanwhile. */
async function scrollFrames(page: Page, list: string) {
  const box = await page.locator(list).boundingBox()
  if (!box) throw new Error('no list to scroll')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.evaluate(() => {
    const { requestAnimationFrame, PerformanceObserver } = globalThis as any
    const b = (globalThis as any).__bench
    b.frameTimes = []
    b.longTasks = []
    b.recording = true
    b.observer = new PerformanceObserver((l: any) => {
      for (const e of l.getEntries()) b.longTasks.push(e.duration)
    })
    b.observer.observe({ type: 'longtask' })
    let last = performance.now()
    const tick = (t: number) => {
      b.frameTimes.push(t - last)
      last = t
      if (b.recording) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  for (let i = 0; i < 80; i++) await page.mouse.wheel(0, 400)
  await delay(300)
  const { frames, longTasks, scrolled } = await page.evaluate((sel) => {
    const { document } = globalThis as any
    const b = (globalThis as any).__bench
    b.recording = false
    b.observer.disconnect()
    return {
      frames: (b.frameTimes as number[]).slice(1),
      longTasks: b.longTasks as number[],
      scrolled: document.querySelector(sel)?.scrollTop ?? 0,
    }
  }, list)
  return {
    frames: frames.length,
    frame_ms: stats(frames),
    over_33ms: frames.filter((f) => f > 33.4).length,
    long_tasks: longTasks.length,
    long_task_ms: Math.round(longTasks.reduce((a, b) => a + b, 0)),
    scrolled_px: Math.round(scrolled),
  }
}

// ---------------------------------------------------------------------------------------------------------------

export interface ConsoleBenchResult {
  console_dir: string
  cores: number
  /** the machine's 1/5/15-minute load averages: the figures are clean only when it is idle */
  load_average: { start: number[]; end: number[] }
  first_load: {
    runs: number
    throttle: number
    console: Record<string, Stats | Record<string, string>>
    floor: Record<string, Stats>
  }
  inbox: {
    conversations: number
    seed_s: number
    all_loaded_s: number
    tab_switch_render: { dom_ms: Stats; painted_ms: Stats; inbox_requests_after: number }
    scroll: Awaited<ReturnType<typeof scrollFrames>>
    live: LivePass[]
    floor_live: LivePass[]
  }
}

export async function benchConsole(opts: ConsoleBenchOptions): Promise<ConsoleBenchResult> {
  ensureConsoleBuilt()
  const system = await startSystem('embedded', { env: { LOG_LEVEL: 'error' } })
  const floor = await startFloor(opts.conversations)
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
  try {
    const loadBefore = loadavg()
    console.log(
      `# console — embedded system at ${system.url}, Chromium ${browser.version()}, load average ${loadBefore.map((l) => fmt(l)).join(' ')} on ${cpus().length} cores`,
    )
    const seeded = await seed(system, opts.conversations - 1)
    const total = seeded.sessions.length + 1
    console.log(`seeded ${total} conversations assigned to the agent in ${fmt(seeded.seconds)} s`)

    // 1. first load, interleaved with the floor (BENCH_CONSOLE_LOADS=0: skipped)
    const consoleRuns: LoadRun[] = []
    const floorRuns: LoadRun[] = []
    // one warm-up of each (the server's and the browser's own first-time costs), not counted
    if (opts.loads > 0) {
      await consoleLoad(browser, system, seeded.agent, opts.throttle)
      await floorLoad(browser, floor, opts.throttle)
    }
    for (let i = 0; i < opts.loads; i++) {
      consoleRuns.push(await consoleLoad(browser, system, seeded.agent, opts.throttle))
      floorRuns.push(await floorLoad(browser, floor, opts.throttle))
    }
    const pick = (runs: LoadRun[], key: keyof LoadRun) => stats(runs.map((r) => Number(r[key])))
    const firstLoad = {
      runs: opts.loads,
      throttle: opts.throttle,
      console: {
        login_field_ms: pick(consoleRuns, 'login_field_ms'),
        login_tti_ms: pick(consoleRuns, 'login_tti_ms'),
        login_bytes: pick(consoleRuns, 'login_bytes'),
        login_requests: pick(consoleRuns, 'login_requests'),
        inbox_rows_ms: pick(consoleRuns, 'inbox_rows_ms'),
        inbox_tti_ms: pick(consoleRuns, 'inbox_tti_ms'),
        connected_ms: pick(consoleRuns, 'connected_ms'),
        inbox_bytes: pick(consoleRuns, 'inbox_bytes'),
        inbox_requests: pick(consoleRuns, 'inbox_requests'),
        encodings: consoleRuns[0]?.encodings ?? {},
      },
      floor: {
        login_field_ms: pick(floorRuns, 'login_field_ms'),
        login_tti_ms: pick(floorRuns, 'login_tti_ms'),
        login_bytes: pick(floorRuns, 'login_bytes'),
      },
    }
    const c = firstLoad.console
    if (opts.loads > 0) {
      console.log(`first load, CPU ×${opts.throttle}, cold cache, ${opts.loads} runs each:`)
      console.log(
        `  console login page: TTI ${show(c.login_tti_ms as Stats)}; ${fmt((c.login_bytes as Stats).p50 / 1024)} KiB in ${(c.login_requests as Stats).p50} requests`,
      )
      console.log(
        `  floor (static page): TTI ${show(firstLoad.floor.login_tti_ms)}; ${fmt(firstLoad.floor.login_bytes.p50 / 1024)} KiB`,
      )
      console.log(
        `  after Log in: inbox rows ${show(c.inbox_rows_ms as Stats)}, TTI ${show(c.inbox_tti_ms as Stats)}, hub connected ${show(c.connected_ms as Stats)}; ${fmt((c.inbox_bytes as Stats).p50 / 1024)} KiB more in ${(c.inbox_requests as Stats).p50} requests`,
      )
    }

    // 2. the inbox with every conversation loaded
    const context = await browser.newContext({ baseURL: system.url })
    const page = await context.newPage()
    await page.addInitScript(instrument)
    const report = await reporter(page)
    const cdp = await context.newCDPSession(page)
    let inboxRequests = 0
    page.on('request', (r) => {
      if (r.url().includes('/api/omni/inbox')) inboxRequests++
    })
    await page.goto('/')
    await submitLogin(page, seeded.agent)
    await waitMark(page, 'connected')
    const list = '[role=listbox][aria-label=Conversations]'
    await page.locator(`${list} [role=option]`).first().waitFor({ timeout: 60_000 })
    const loadStarted = performance.now()
    for (;;) {
      const count = await page.evaluate((sel) => {
        const { document } = globalThis as any
        const el = document.querySelector(sel)!
        el.scrollTop = el.scrollHeight
        return Number(el.querySelector('[role=option]:last-child')?.getAttribute('aria-posinset') ?? 0)
      }, list)
      if (count >= total) break
      await page.waitForFunction(
        ([sel, before]) =>
          Number(
            [...(globalThis as any).document.querySelectorAll(`${sel} [role=option]`)]
              .map((o: any) => Number(o.getAttribute('aria-posinset')))
              .reduce((a, b) => Math.max(a, b), 0),
          ) > (before as number),
        [list, count] as const,
        { timeout: 60_000 },
      )
    }
    const allLoaded = (performance.now() - loadStarted) / 1000
    const setSize = await page.locator(`${list} [role=option]`).first().getAttribute('aria-setsize')
    console.log(`every page loaded by scrolling: ${total} rows (aria-setsize ${setSize}) in ${fmt(allLoaded)} s`)
    await page.evaluate((sel) => {
      ;(globalThis as any).document.querySelector(sel).scrollTop = 0
    }, list)

    const scroll = await profiled(cdp, 'console-scroll', () => scrollFrames(page, list))
    console.log(
      `scrolling ${total} rows (80 wheel steps of 400 px, ${scroll.scrolled_px} px): ${scroll.frames} frames, ${show(scroll.frame_ms)}, ${scroll.over_33ms} over 33 ms, ${scroll.long_tasks} long tasks (${scroll.long_task_ms} ms)`,
    )
    await page.evaluate((sel) => {
      ;(globalThis as any).document.querySelector(sel).scrollTop = 0
    }, list)

    // the list rendered from the cache: Unassigned (empty) and back to Mine
    const switches: { dom: number; painted: number }[] = []
    const requestsBefore = inboxRequests
    for (let i = 0; i < 5; i++) {
      await page.getByRole('tab', { name: 'Unassigned' }).click()
      await page.getByText('No conversations here.').waitFor({ timeout: 60_000 })
      const measured = page.evaluate(
        (sel) =>
          new Promise<{ dom: number; painted: number }>((resolve) => {
            const { document, requestAnimationFrame, MutationObserver, MessageChannel } = globalThis as any
            let t0: number | undefined
            document.addEventListener('click', () => (t0 = performance.now()), { capture: true, once: true })
            const observer = new MutationObserver(() => {
              if (t0 === undefined || !document.querySelector(`${sel} [role=option]`)) return
              observer.disconnect()
              const t1 = performance.now()
              requestAnimationFrame(() => {
                const channel = new MessageChannel()
                channel.port1.onmessage = () => resolve({ dom: t1 - t0!, painted: performance.now() - t0! })
                channel.port2.postMessage(0)
              })
            })
            observer.observe(document, { subtree: true, childList: true })
          }),
        list,
      )
      await page.getByRole('tab', { name: 'Mine' }).click()
      switches.push(await measured)
    }
    await delay(2000)
    const tabSwitch = {
      dom_ms: stats(switches.map((s) => s.dom)),
      painted_ms: stats(switches.map((s) => s.painted)),
      inbox_requests_after: inboxRequests - requestsBefore,
    }
    console.log(
      `the list rendered with ${total} rows cached (Unassigned → Mine): DOM ${show(tabSwitch.dom_ms)}; painted ${show(tabSwitch.painted_ms)}; inbox requests meanwhile ${tabSwitch.inbox_requests_after}`,
    )

    // live events to conversations deep in the list (never one of the first 300), each moving its row to the top
    const live: LivePass[] = []
    let next = 0
    const deep = seeded.sessions.slice(300)
    for (const rate of opts.liveThrottles) {
      await page.evaluate((sel) => {
        ;(globalThis as any).document.querySelector(sel).scrollTop = 0
      }, list)
      const pass = await livePass('console', rate, opts.events, cdp, (_, token) => {
        const s = deep[(next++ * 7_919) % deep.length]!
        return report(token, () => seeded.post(s.id, s.customer_id, token))
      })
      live.push(pass)
      console.log(
        `live event → row, ${total} rows, CPU ×${rate}: DOM ${show(pass.dom_ms)}; next frame ${show(pass.next_frame_ms)}; painted ${show(pass.painted_ms)}; lost ${pass.lost}, not at the top ${pass.not_at_top}`,
      )
    }
    await context.close()

    // the floor: a plain page, the same frames over a plain WebSocket
    const floorContext = await browser.newContext()
    const floorPage = await floorContext.newPage()
    await floorPage.addInitScript(instrument)
    const floorReport = await reporter(floorPage)
    const floorCdp = await floorContext.newCDPSession(floorPage)
    await floorPage.goto(`${floor.url}/list`)
    await floorPage.waitForFunction(() => (globalThis as any).document.title === 'open')
    const floorLive: LivePass[] = []
    let n = 0
    for (const rate of opts.liveThrottles) {
      const pass = await livePass('floor', rate, opts.events, floorCdp, (_, token) => {
        const i = 300 + ((n++ * 7_919) % (opts.conversations - 300))
        const at = new Date().toISOString()
        const frame = {
          type: 'text-message',
          data: {
            message_id: newId(),
            seq: 2,
            sender: 'customer',
            sender_id: 'customer',
            kind: 'text',
            content: token,
            metadata: {},
            visibility: 'public',
            created_at: at,
          },
          session_id: `c-${i}`,
          timestamp: at,
        }
        return floorReport(token, () => floor.send(JSON.stringify(frame)))
      })
      floorLive.push(pass)
      console.log(
        `  floor (plain page, 50,000-item array, one DOM row), CPU ×${rate}: DOM ${show(pass.dom_ms)}; next frame ${show(pass.next_frame_ms)}; painted ${show(pass.painted_ms)}; lost ${pass.lost}`,
      )
    }
    await floorContext.close()

    const loadAfter = loadavg()
    console.log(`load average at the end ${loadAfter.map((l) => fmt(l)).join(' ')}`)
    return {
      console_dir: process.env.CONSOLE_DIR ?? 'apps/console/dist',
      cores: cpus().length,
      load_average: { start: loadBefore, end: loadAfter },
      first_load: firstLoad,
      inbox: {
        conversations: total,
        seed_s: Math.round(seeded.seconds * 10) / 10,
        all_loaded_s: Math.round(allLoaded * 10) / 10,
        tab_switch_render: tabSwitch,
        scroll,
        live,
        floor_live: floorLive,
      },
    }
  } finally {
    await browser.close()
    await floor.close()
    await system.close()
  }
}
