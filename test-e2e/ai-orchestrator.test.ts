// AI answers end to end through the gateway, in both run modes, against small real servers that speak the
// providers' and the LLM's APIs (services/ai-orchestrator/test/helpers/stand-ins.ts): a widget message answered by
// the AI from the primary provider (composed by the LLM, written back into the conversation); the primary down →
// the compatibility provider; both down → the local knowledge base with strategy fallback; "I want a human" → the
// waiting queue; statistics' DailyStats AI counters moving with the answers; a workspace's own provider set under
// governance, and one on an address the operator did not allow (AI_OUTBOUND_ALLOWED_HOSTS) never called.

import { mintServiceToken } from '@switchboard/cli'
import t from 'tap'
import { startLlmStandIn } from '../services/ai-orchestrator/test/helpers/llm-stand-in.ts'
import { startCompatibilityStandIn, startPrimaryStandIn } from '../services/ai-orchestrator/test/helpers/stand-ins.ts'
import { conversationsKit, must, selectors } from './harness/conversations-kit.ts'
import { until } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { openSocket } from './harness/realtime-kit.ts'

const REFUND = { title: 'Refund policy', content: 'Refunds are paid within 14 days of the return reaching us.' }
const OWN = { title: 'Workspace refunds', content: 'In this workspace refunds are paid within 3 days.' }
const SHIPPING = { title: 'Shipping times', content: 'Parcels ship within two business days by tracked post.' }

const primary = await startPrimaryStandIn({ docs: [REFUND] })
// a workspace's own provider, set through config-governance
const own = await startPrimaryStandIn({ docs: [OWN], apiKey: 'own-provider-key', datasetId: 'own-ds' })
// a workspace's own provider on a loopback address the harness's AI_OUTBOUND_ALLOWED_HOSTS (127.0.0.1) leaves out
const blocked = await startPrimaryStandIn({
  docs: [OWN],
  apiKey: 'blocked-key',
  datasetId: 'own-ds',
  host: '127.0.0.2',
})
const compat = await startCompatibilityStandIn({ docs: [SHIPPING] })
const llm = await startLlmStandIn()
// one set of stand-ins for both run modes, closed when the file's tests are done
t.teardown(() => Promise.all([primary.close(), own.close(), blocked.close(), compat.close(), llm.close()]))
const p = primary.settings()
const c = compat.settings()
const env = {
  PRIMARY_PROVIDER_ENABLED: 'true',
  PRIMARY_PROVIDER_BASE_URL: p.base_url,
  PRIMARY_PROVIDER_API_KEY: p.api_key,
  PRIMARY_PROVIDER_DATASET_ID: p.dataset_id,
  PRIMARY_PROVIDER_TIMEOUT_MS: '1000',
  COMPAT_PROVIDER_ENABLED: 'true',
  COMPAT_PROVIDER_BASE_URL: c.base_url,
  COMPAT_PROVIDER_API_KEY: c.api_key,
  COMPAT_PROVIDER_KNOWLEDGE_BASE_ID: c.knowledge_base_id,
  COMPAT_PROVIDER_TENANT_ID: c.tenant_id,
  COMPAT_PROVIDER_TIMEOUT_MS: '1000',
  LLM_BASE_URL: llm.url,
  LLM_API_KEY: llm.apiKey,
  AI_REPLIES_ENABLED: 'true',
}

inEachMode('ai orchestrator', { env }, async (t, system) => {
  primary.setMode('good')
  compat.setMode('good')
  const kit = await conversationsKit(system)
  const { api } = kit
  const scope = kit.freshScope('ai')
  const staff = kit.svc(scope)
  const hub = kit.hub(scope)
  const messagesOf = async (sessionId: string) =>
    must(await api.get(`/api/omni/sessions/${sessionId}/messages`, staff), 200, 'messages').items as any[]

  t.test('a widget message is answered by the AI from the primary provider, streamed while written', async (t) => {
    await kit.customer(scope, 'ai_c1') // the scope exists (identity knows it) before a visitor comes
    const widget = await openSocket(system.url, {
      query: { tenant_id: scope.tenant_id, workspace_id: scope.workspace_id },
    })
    t.teardown(() => widget.ws.terminate())
    widget.send({ type: 'text-message', data: 'when are refunds paid?' })
    const session = await widget.next('session')
    const piece = await widget.next('ai-response', {
      match: (f) => f.data?.partial === true,
      what: 'a piece of the answer',
    })
    t.match(piece.data, { partial: true, in_reply_to: String, text: /^Answer/ }, 'the answer streams as it is written')
    const final = await widget.next('ai-response', {
      match: (f) => typeof f.data?.message_id === 'string',
      what: 'the AI message',
    })
    t.match(final.data.content, /Refunds are paid within 14 days/, 'composed by the LLM from the primary passage')
    t.ok(final.data.content.startsWith(piece.data.text), 'the pieces were the beginning of the answer')
    const reply = (await messagesOf(session.data.session_id)).find((m) => m.sender === 'ai')
    t.match(reply.metadata, { strategy: 'primary', sources: [{ title: 'Refund policy' }] })
    const retrieve = primary.requests.find((r) => r.path.endsWith('/retrieve'))
    t.match(
      retrieve?.path,
      new RegExp(`/datasets/${p.dataset_id}/retrieve$`),
      'the configured dataset, not the session',
    )
  })

  t.test('primary down → compatibility → local knowledge base (strategy fallback)', async (t) => {
    primary.setMode('error')
    const viaCompat = await api.post('/api/v1/ai/query', { query: 'shipping times for parcels' }, staff)
    t.equal(viaCompat.status, 200, viaCompat.text)
    t.match(viaCompat.body, {
      strategy: 'compatibility',
      source: 'compatibility',
      sources: [{ title: 'Shipping times' }],
    })

    compat.setMode('error')
    const doc = await api.post(
      '/api/knowledge-docs',
      { title: 'Opening hours', content: 'The desk answers from 8 to 18 on weekdays.', is_public: true },
      staff,
    )
    t.equal(doc.status, 201, doc.text)
    const viaLocal = await api.post('/api/v1/ai/query', { query: 'opening hours of the desk' }, staff)
    t.equal(viaLocal.status, 200, viaLocal.text)
    t.match(viaLocal.body, {
      strategy: 'fallback',
      source: 'local',
      sources: [{ title: 'Opening hours', source: 'local' }],
    })
    const status = await api.get('/api/v1/ai/status', staff)
    t.equal(status.status, 200, status.text)
    t.same(
      status.body.providers.map((x: any) => [x.id, x.enabled]),
      [
        ['primary', true],
        ['compatibility', true],
      ],
    )
    const kb = await api.get(`/public/kb/docs?tenant_id=${scope.tenant_id}&workspace_id=${scope.workspace_id}`)
    t.equal(kb.status, 200, kb.text)
    t.ok(
      kb.body.data.some((d: any) => d.title === 'Opening hours'),
      'the public knowledge base shows the public doc',
    )
    primary.setMode('good')
    compat.setMode('good')
    must(await api.post('/api/v1/ai/circuit-breaker/reset', undefined, staff), 200, 'reset')
    // an operator's act for every tenant: audited though it lives under /api/v1
    const record = await until('the breaker reset audited', async () => {
      const r = await api.get('/api/audit/logs?action=ai_breakers.reset', staff)
      return r.status === 200 ? r.body.data[0] : undefined
    })
    t.match(record, { resource_type: 'ai_breakers', resource_id: 'all', success: true })
  })

  t.test('"I want a human" hands the conversation to the waiting queue', async (t) => {
    const customer = await kit.customer(scope, 'ai_c2')
    const opened = await hub.open('I want a human, please', customer.user_id)
    const session = await until('the hand-over', async () => {
      const r = await api.get(`/api/omni/sessions/${opened.session.id}`, staff)
      return r.body?.status === 'waiting_human' ? r.body : undefined
    })
    t.equal(session.status, 'waiting_human')
    const reply = (await messagesOf(opened.session.id)).find((m) => m.sender === 'ai')
    t.match(reply, { metadata: { strategy: 'transfer' } }, 'the customer is told a human comes')
  })

  t.test("statistics' DailyStats AI counters move with the answers", async (t) => {
    // four answers above: the conversation's (primary), compatibility, local, the hand-over
    const dashboard = await until('the AI counters', async () => {
      const r = await api.get('/api/statistics/dashboard', { token: kit.service })
      return r.body?.ai_usage_today >= 4 && r.body?.compat_provider_usage_today >= 1 ? r.body : undefined
    })
    t.ok(dashboard.ai_usage_today >= 4, `ai_usage_today ${dashboard.ai_usage_today}`)
    t.ok(dashboard.knowledge_provider_usage_today >= 2, 'primary and compatibility answers')
    t.ok(dashboard.compat_provider_usage_today >= 1, 'the compatibility answer')
    // the scope's own AI usage (statistics' ai_days): this workspace's answers, none of another's
    const today = new Date().toISOString().slice(0, 10)
    const usage = `/api/statistics/ai-usage?start_date=${today}&end_date=${today}`
    const mine = await until("the workspace's AI usage", async () => {
      const r = await api.get(usage, staff)
      return r.status === 200 && r.body[0]?.ai_usage_count >= 4 ? r.body[0] : undefined
    })
    t.ok(mine.ai_usage_count <= dashboard.ai_usage_today, 'a part of every tenant’s answers')
    const elsewhere = await api.get(usage, kit.svc(kit.freshScope('aiusage')))
    t.same(
      elsewhere.body,
      [{ date: today, ai_usage_count: 0, knowledge_provider_usage_count: 0, compat_provider_usage_count: 0 }],
      'another tenant: none',
    )
  })

  t.test("a workspace's own provider, set under governance, answers that workspace's questions", async (t) => {
    // two operators: dual control needs an approver who is not the executor
    const executor = (
      await mintServiceToken({ service: `gov-exec-${kit.suffix}`, permissions: ['*'], env: system.env })
    ).token
    const approver = (
      await mintServiceToken({ service: `gov-appr-${kit.suffix}`, permissions: ['*'], env: system.env })
    ).token
    const as = (token: string) => ({ token, headers: selectors(scope) })
    const change = { change_ref: `KP-${kit.suffix}`, reason: 'own knowledge base', approval_ref: `A-KP-${kit.suffix}` }
    const approved = await api.post(
      '/api/security/config/workspace/approve',
      { notes: 'endpoint reviewed', ...change },
      as(approver),
    )
    t.equal(approved.status, 200, approved.text)
    const o = own.settings()
    const put = await api.put(
      '/api/security/config/workspace',
      {
        knowledge_provider: {
          primary: { enabled: true, base_url: o.base_url, api_key: o.api_key, dataset_id: o.dataset_id },
        },
        ...change,
      },
      as(executor),
    )
    t.equal(put.status, 200, put.text)
    t.notOk(put.text.includes('own-provider-key'), 'the key is not shown back')
    const answered = await until('the workspace provider', async () => {
      const r = await api.post('/api/v1/ai/query', { query: 'when are refunds paid' }, staff)
      return r.body?.sources?.[0]?.title === OWN.title ? r.body : undefined
    })
    t.match(answered, { source: 'primary', sources: [{ title: OWN.title }] })
    t.ok(
      own.requests.some((r) => r.headers.authorization === 'Bearer own-provider-key'),
      'called with the stored key',
    )
    const other = kit.freshScope('aiother')
    const elsewhere = await api.post('/api/v1/ai/query', { query: 'when are refunds paid' }, kit.svc(other))
    t.match(elsewhere.body, { sources: [{ title: REFUND.title }] }, 'another workspace keeps the system provider')
  })

  t.test('a governed provider on an address the operator did not allow is never called', async (t) => {
    const executor = (
      await mintServiceToken({ service: `gov-exec2-${kit.suffix}`, permissions: ['*'], env: system.env })
    ).token
    const approver = (
      await mintServiceToken({ service: `gov-appr2-${kit.suffix}`, permissions: ['*'], env: system.env })
    ).token
    const fenced = kit.freshScope('aifenced')
    const as = (token: string) => ({ token, headers: selectors(fenced) })
    const change = {
      change_ref: `KPB-${kit.suffix}`,
      reason: 'own knowledge base',
      approval_ref: `A-KPB-${kit.suffix}`,
    }
    must(
      await api.post('/api/security/config/workspace/approve', { notes: 'endpoint reviewed', ...change }, as(approver)),
      200,
      'approve',
    )
    const b = blocked.settings()
    const put = await api.put(
      '/api/security/config/workspace',
      {
        knowledge_provider: {
          primary: { enabled: true, base_url: b.base_url, api_key: b.api_key, dataset_id: b.dataset_id },
        },
        ...change,
      },
      as(executor),
    )
    t.equal(put.status, 200, put.text)
    // the override is in force once the scope's status shows its own provider (a breaker named after its endpoint)
    const status = await until('the fenced workspace provider', async () => {
      const r = await api.get('/api/v1/ai/status', kit.svc(fenced))
      return /^primary@/.test(r.body?.providers?.[0]?.breaker?.name ?? '') ? r.body : undefined
    })
    t.match(
      status.providers[0],
      { id: 'primary', healthy: false, health: { error: /endpoint address not allowed \(127\.0\.0\.2\)/ } },
      'refused when connecting (the health probe)',
    )
    const answered = await api.post('/api/v1/ai/query', { query: 'shipping times for parcels' }, kit.svc(fenced))
    t.equal(answered.status, 200, answered.text)
    t.match(
      answered.body,
      { source: 'compatibility', sources: [{ title: SHIPPING.title }] },
      'the next provider answers (fallback)',
    )
    t.equal(blocked.requests.length, 0, 'the endpoint outside AI_OUTBOUND_ALLOWED_HOSTS received no request')
  })
})
