// Distributed tracing end to end, in both run modes (docs/architecture.md §9): with monitoring.tracing on at
// ratio 1.0 and the units exporting OTLP/HTTP JSON to a small receiver started here, one request is one trace — the
// gateway's span, the service's span under it (traceparent on the proxied request), its SQL, the outbox row's
// publish, and a consumer span per consumer that handled the event (NATS headers in the fleet, the delivery's
// headers in process), down to the hub's frame to a socket.
import type { Test } from 'tap'
import t from 'tap'
import { conversationsKit } from './harness/conversations-kit.ts'
import { inEachMode } from './harness/modes.ts'
import { KIND, type ReceivedSpan, startOtlpReceiver } from './harness/otlp-receiver.ts'
import { openSocket } from './harness/realtime-kit.ts'
import type { Mode } from './harness/system.ts'
import { createTicket, realCustomer } from './harness/tickets-kit.ts'

const receiver = await startOtlpReceiver()
t.teardown(() => receiver.close())

const env = {
  TRACING_ENABLED: 'true',
  OTEL_TRACES_SAMPLER_ARG: '1.0',
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
}

/** What a check expects of a trace: a name, and a finder over its spans (undefined while missing). */
type Want = [string, (spans: ReceivedSpan[]) => ReceivedSpan | undefined]

/**
 * The trace whose gateway span served request `requestId`, once every wanted span has arrived (exporters batch: up
 * to a second or two per process); fails naming what is still missing, and the spans of the trace so far.
 */
async function traceOf(requestId: string, wants: (root: ReceivedSpan) => Want[], ms = 30_000) {
  const started = Date.now()
  let missing: string[] = ['the gateway span']
  let spans: ReceivedSpan[] = []
  while (Date.now() - started < ms) {
    const root = receiver.spans.find(
      (s) => s.attributes['switchboard.unit'] === 'gateway' && s.attributes['switchboard.request_id'] === requestId,
    )
    if (root) {
      spans = receiver.spans.filter((s) => s.traceId === root.traceId)
      const found = wants(root).map(([name, find]) => [name, find(spans)] as const)
      missing = found.filter(([, s]) => !s).map(([name]) => name)
      if (missing.length === 0) return { root, spans, found: Object.fromEntries(found) as Record<string, ReceivedSpan> }
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  const tree = spans.map((s) => `${s.spanId}<-${s.parentSpanId || 'root'} ${s.name} [${s.service}]`).join('\n')
  throw new Error(`trace of ${requestId}: missing ${missing.join(', ')}; spans so far:\n${tree}`)
}

const childOf = (parent: ReceivedSpan | undefined, pred: (s: ReceivedSpan) => boolean) => (spans: ReceivedSpan[]) =>
  parent ? spans.find((s) => s.parentSpanId === parent.spanId && pred(s)) : undefined

const serviceSpan = (root: ReceivedSpan, unit: string) =>
  childOf(root, (s) => s.kind === KIND.server && s.attributes['switchboard.unit'] === unit)

const dbSystem = (mode: Mode) => (mode === 'embedded' ? 'sqlite' : 'postgresql')

/** A consumer's span of an event published under `producer`: a durable's (`consume`) or a subscription's. */
const consumerOf = (producer: ReceivedSpan | undefined, key: string, value: string) =>
  childOf(producer, (s) => s.kind === KIND.consumer && s.attributes[key] === value)

/** Each span's unit, in the fleet where each process exports under its own service.name. */
function inUnit(t: Test, mode: Mode, span: ReceivedSpan, unit: string) {
  t.equal(span.service, mode === 'fleet' ? unit : 'switchboard', `${span.name} is exported by ${unit}'s process`)
}

inEachMode('tracing across HTTP and events', { env }, async (t, system) => {
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('traced')
  const alice = await kit.agent(scope, 'alice', { online: true })
  await kit.onlineAgents(scope, 1)
  const token = (await kit.agentLogin(alice)).token
  // a widget's session, handed to alice, with both sockets open: the message's frame has a socket to go to
  const widget = await openSocket(
    system.url,
    { query: { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id } },
    t,
  )
  const agentConsole = await openSocket(system.url, { token, via: 'protocol' }, t)
  widget.send({ type: 'text-message', data: 'Hello, I would like to talk to a human please' })
  const sessionId = (await widget.next('session')).data.session_id as string
  await agentConsole.next('transfer_notification', { match: (f) => f.session_id === sessionId })

  t.test(
    'an agent message: gateway → conversations → SQL → outbox → statistics, AI and the hub → a frame',
    async (t) => {
      const reply = await api.post(
        `/api/omni/sessions/${sessionId}/messages`,
        { content: 'Hi, Alice here. Traced?' },
        { token },
      )
      t.equal(reply.status, 201, reply.text)
      await widget.next('agent-message', { match: (f) => f.data.message_id === reply.body.id })
      const requestId = reply.headers.get('x-request-id')!

      const { root, found } = await traceOf(requestId, (root) => {
        const svc = serviceSpan(root, 'conversations')(receiver.spans.filter((s) => s.traceId === root.traceId))
        const publish = childOf(
          svc,
          (s) => s.kind === KIND.producer && s.attributes['switchboard.event.type'] === 'conversations.message.created',
        )(receiver.spans)
        const hub = consumerOf(publish, 'messaging.destination.subscription.name', 'conversations.>')(receiver.spans)
        return [
          ['the conversations span', () => svc],
          [
            'its SQL',
            childOf(svc, (s) => s.kind === KIND.client && s.attributes['db.system.name'] === dbSystem(system.mode)),
          ],
          [
            // on PostgreSQL written by the message's own statement (`with "counted" … insert into "outbox" …`)
            'its outbox row',
            childOf(
              svc,
              (s) => s.kind === KIND.client && /insert into "outbox"/i.test(String(s.attributes['db.query.text'])),
            ),
          ],
          ['the message.created publish', () => publish],
          ['the statistics consumer', consumerOf(publish, 'messaging.consumer.group.name', 'statistics-conversations')],
          ['the AI consumer', consumerOf(publish, 'messaging.consumer.group.name', 'ai-conversation-replies')],
          ['the hub', () => hub],
          ['the hub frame', childOf(hub, (s) => s.name === 'hub frame')],
        ]
      })
      t.equal(root.parentSpanId, '', 'the gateway span is the root (the client sent no traceparent)')
      t.equal(root.kind, KIND.server)
      inUnit(t, system.mode, root, 'gateway')
      const svc = found['the conversations span']!
      t.equal(svc.parentSpanId, root.spanId, "conversations' span is the gateway's child")
      t.equal(svc.attributes['http.route'], '/api/omni/sessions/:id/messages', 'named by its route template')
      inUnit(t, system.mode, svc, 'conversations')
      t.equal(found['its SQL']!.parentSpanId, svc.spanId, 'the SQL runs under the service span')
      const publish = found['the message.created publish']!
      t.equal(publish.parentSpanId, svc.spanId, 'the publish continues the trace stored with the outbox row')
      for (const name of ['the statistics consumer', 'the AI consumer', 'the hub'])
        t.equal(found[name]!.parentSpanId, publish.spanId, `${name} is the publish's child`)
      inUnit(t, system.mode, found['the statistics consumer']!, 'statistics')
      inUnit(t, system.mode, found['the AI consumer']!, 'ai-orchestrator')
      inUnit(t, system.mode, found['the hub']!, 'realtime-voice')
      t.match(found['the hub frame']!.attributes, { 'switchboard.frame.type': 'agent-message' })
    },
  )

  t.test(
    'a ticket: gateway → tickets → SQL → its events → statistics; its audit record → the audit consumer',
    async (t) => {
      const customer = await realCustomer(api, kit.svc(scope), `traced_${kit.suffix}`)
      const created = await createTicket(
        api,
        { title: `Traced ticket ${kit.suffix}`, priority: 'high', customer_id: customer.user_id },
        { token },
      )
      t.equal(created.status, 201, created.text)
      const requestId = created.headers.get('x-request-id')!
      const { root, found } = await traceOf(requestId, (root) => {
        const spans = receiver.spans.filter((s) => s.traceId === root.traceId)
        const svc = serviceSpan(root, 'tickets')(spans)
        const publishOf = (pred: (type: string) => boolean) =>
          childOf(svc, (s) => s.kind === KIND.producer && pred(String(s.attributes['switchboard.event.type'])))(spans)
        const created = publishOf((type) => type === 'tickets.ticket.created')
        return [
          ['the tickets span', () => svc],
          [
            'its SQL',
            childOf(svc, (s) => s.kind === KIND.client && s.attributes['db.system.name'] === dbSystem(system.mode)),
          ],
          ['the ticket.created publish', () => created],
          ['the statistics consumer', consumerOf(created, 'messaging.consumer.group.name', 'statistics-tickets')],
          [
            'the audit consumer',
            (spans) =>
              spans.find(
                (s) =>
                  s.kind === KIND.consumer &&
                  s.attributes['messaging.consumer.group.name'] === 'audit-recorder' &&
                  spans.some(
                    (p) => p.spanId === s.parentSpanId && p.kind === KIND.producer && p.parentSpanId === svc?.spanId,
                  ),
              ),
          ],
        ]
      })
      const svc = found['the tickets span']!
      t.equal(svc.parentSpanId, root.spanId, "tickets' span is the gateway's child")
      inUnit(t, system.mode, svc, 'tickets')
      t.equal(found['its SQL']!.parentSpanId, svc.spanId)
      t.equal(found['the statistics consumer']!.parentSpanId, found['the ticket.created publish']!.spanId)
      inUnit(t, system.mode, found['the audit consumer']!, 'audit')
      inUnit(t, system.mode, found['the statistics consumer']!, 'statistics')
    },
  )

  t.test("the hub's cluster stats: gateway → realtime-voice → its Redis calls (the fleet's cache)", async (t) => {
    const stats = await api.get('/api/v1/ws/stats?scope=cluster', { token })
    t.equal(stats.status, 200, stats.text)
    const requestId = stats.headers.get('x-request-id')!
    const { root, found } = await traceOf(requestId, (root) => {
      const svc = serviceSpan(root, 'realtime-voice')(receiver.spans)
      return [
        ['the realtime-voice span', () => svc],
        ...(system.mode === 'fleet'
          ? ([['its Redis call', childOf(svc, (s) => s.attributes['db.system.name'] === 'redis')]] as Want[])
          : []),
      ]
    })
    t.equal(found['the realtime-voice span']!.parentSpanId, root.spanId)
    if (system.mode === 'fleet') {
      t.match(found['its Redis call']!, { kind: KIND.client, name: 'ZRANGEBYSCORE' }, 'a CLIENT span per Redis command')
      inUnit(t, system.mode, found['its Redis call']!, 'realtime-voice')
    } else {
      t.comment('embedded: the in-memory cache makes no network call and no span')
    }
  })
})

t.test('probes and WebSocket upgrades are not traced', async (t) => {
  t.notOk(
    receiver.spans.some((s) => ['/health', '/ready', '/metrics'].includes(String(s.attributes['http.route']))),
    'no span of /health, /ready or /metrics',
  )
  t.notOk(
    receiver.spans.some(
      (s) =>
        String(s.attributes['url.path']).startsWith('/api/v1/ws') &&
        !String(s.attributes['url.path']).includes('/stats'),
    ),
    "no span of a socket's upgrade (it would last the socket's lifetime)",
  )
  t.ok(receiver.requests > 0, `${receiver.requests} export requests, ${receiver.spans.length} spans received`)
})
