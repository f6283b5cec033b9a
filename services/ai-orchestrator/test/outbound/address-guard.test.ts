import { ConfigEvents } from '@switchboard/contracts'
import { configEncryptionKeys, createRootLogger, createSecretBox, type Scope } from '@switchboard/platform'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { type AiConfig, loadConfig } from '../../src/config.ts'
import type { AiService } from '../../src/context.ts'
import { createLlmClient } from '../../src/llm/openai.ts'
import { LlmError } from '../../src/llm/port.ts'
import {
  addressAllowed,
  createGuardedDispatcher,
  isPublicAddress,
  parseAllowList,
  type Refusal,
} from '../../src/outbound/address-guard.ts'
import { createCompatibilityProvider } from '../../src/providers/compatibility.ts'
import { ProviderError } from '../../src/providers/port.ts'
import { createPrimaryProvider } from '../../src/providers/primary.ts'
import { ACME, agent, aiApp, call, GLOBEX, INTERNAL_SECRET, publish } from '../helpers/app.ts'
import { startCompatibilityStandIn, startLlmStandIn, startPrimaryStandIn } from '../helpers/stand-ins.ts'

const DOC = { title: 'Refund policy', content: 'Refunds are paid within 14 days.' }
const ask = { query: 'when are refunds paid', limit: 5, scope: ACME }

t.test('public unicast addresses only: v4, v6 and the IPv6 forms of IPv4 addresses', async (t) => {
  const pub = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1']
  const pub6 = ['2606:4700:4700::1111', '2001:4860:4860::8888', '[2a00:1450:4001:82b::200e]', '::ffff:8.8.8.8']
  for (const ip of [...pub, ...pub6]) t.ok(isPublicAddress(ip), `${ip} is public`)
  const refused = {
    loopback: ['127.0.0.1', '127.255.255.254', '::1', '[::1]'],
    private: ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', 'fc00::1', 'fd12:3456::1'],
    'link-local and metadata': ['169.254.169.254', '169.254.0.1', 'fe80::1', 'fe80::1%eth0', 'fd00:ec2::254'],
    'shared (CGNAT)': ['100.64.0.1', '100.127.255.255'],
    unspecified: ['0.0.0.0', '0.1.2.3', '::'],
    'multicast and broadcast': ['224.0.0.1', '239.255.255.250', '255.255.255.255', 'ff02::1'],
    'reserved and documentation': [
      '240.0.0.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '2001:db8::1',
    ],
    'IPv4-mapped and -embedding IPv6': [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '::7f00:1',
      '::ffff:0:7f00:1',
    ],
    'not an address': ['', 'localhost', 'example.com', '999.1.1.1'],
  }
  for (const [kind, ips] of Object.entries(refused))
    for (const ip of ips) t.notOk(isPublicAddress(ip), `${JSON.stringify(ip)} is not public (${kind})`)
})

t.test('the allow-list: host names, addresses and CIDR ranges; anything else stops the start', async (t) => {
  const allow = parseAllowList(['127.0.0.1', ' 10.0.0.0/8 ', 'KB.Internal.', '::1', '::ffff:192.168.7.0/120'])
  t.same([...allow.names], ['kb.internal'], 'host names in lower case, without the trailing dot')
  for (const ip of ['127.0.0.1', '10.1.2.3', '::1', '::ffff:10.9.9.9', '192.168.7.200', '8.8.8.8'])
    t.ok(addressAllowed(allow, ip), `${ip} allowed`)
  for (const ip of ['127.0.0.2', '172.16.0.1', '169.254.169.254', '192.168.8.1', '::2', 'fe80::1'])
    t.notOk(addressAllowed(allow, ip), `${ip} not allowed`)
  t.notOk(addressAllowed(parseAllowList([]), '127.0.0.1'), 'nothing private without an allow-list')

  const env = { INTERNAL_SECRET, AI_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1, 10.0.0.0/8,,kb.internal' }
  t.same(loadConfig(env).outbound_allowed_hosts, ['127.0.0.1', '10.0.0.0/8', 'kb.internal'])
  t.same(loadConfig({ INTERNAL_SECRET }).outbound_allowed_hosts, [], 'none by default')
  for (const bad of ['10.0.0.0/33', 'http://kb.internal', 'kb internal', '10.0.0.0/8/1'])
    t.throws(
      () => loadConfig({ INTERNAL_SECRET, AI_OUTBOUND_ALLOWED_HOSTS: bad }),
      /AI_OUTBOUND_ALLOWED_HOSTS/,
      `${bad} refused`,
    )
})

/** A guarded dispatcher with its refusals recorded. */
function guarded(entries: string[] = []) {
  const refusals: Refusal[] = []
  const dispatcher = createGuardedDispatcher(parseAllowList(entries), (r) => refusals.push(r))
  return { dispatcher, refusals }
}

async function providerFailure(t: Test, promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => t.fail('expected a ProviderError') as never,
    (e: unknown) => e,
  )
  t.type(err, ProviderError)
  return err as ProviderError
}

t.test('a governed endpoint on loopback is refused when connecting: nothing reaches it', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: [DOC] })
  t.teardown(() => standIn.close())
  const port = new URL(standIn.url).port
  const { dispatcher, refusals } = guarded()
  const urls = {
    '127.0.0.1': standIn.url,
    '::ffff:7f00:1': `http://[::ffff:127.0.0.1]:${port}/v1`,
    '0.0.0.0': `http://0.0.0.0:${port}/v1`,
    '127.0.0.1 (a number)': `http://2130706433:${port}/v1`,
    '::1': `http://[::1]:${port}/v1`,
  }
  for (const [what, base_url] of Object.entries(urls)) {
    const provider = createPrimaryProvider(standIn.settings({ base_url }), dispatcher)
    const err = await providerFailure(t, provider.retrieve(ask))
    t.equal(err.kind, 'connection', `${what}: a connection failure (the next provider is asked)`)
    t.match(err.message, /^primary provider retrieve failed: endpoint address not allowed \(/, what)
    t.notMatch(err.message, standIn.apiKey, 'no key in the message')
    const health = await provider.health()
    t.match(health, { healthy: false, error: /endpoint address not allowed/ }, `${what}: unhealthy`)
  }
  t.equal(standIn.requests.length, 0, 'the stand-in received no request')
  t.ok(refusals.length >= Object.keys(urls).length * 2, 'each refusal reported')
  t.match(refusals[0], { host: '127.0.0.1', address: '127.0.0.1' })

  // the plain fetch of the system's own endpoints is not guarded
  const system = createPrimaryProvider(standIn.settings())
  t.match(await system.retrieve(ask), [{ title: DOC.title }], 'the system layer on loopback still answers')
  t.equal(standIn.requests.length, 1)
})

t.test('a host name that resolves to loopback is refused on the address it resolves to', async (t) => {
  const standIn = await startPrimaryStandIn({ docs: [DOC] })
  t.teardown(() => standIn.close())
  const base_url = standIn.url.replace('127.0.0.1', 'localhost')
  const { dispatcher, refusals } = guarded(['10.0.0.0/8', '::1/128'])
  const err = await providerFailure(t, createPrimaryProvider(standIn.settings({ base_url }), dispatcher).retrieve(ask))
  t.equal(err.kind, 'connection')
  t.match(err.message, 'endpoint address not allowed (localhost)', 'the host as configured')
  t.notMatch(err.message, '127.0.0.1', 'never the address it resolved to (the network is not told to callers)')
  t.match(refusals, [{ host: 'localhost', address: /^(127\.|::1$)/ }], 'the resolved address goes to the log')
  t.match(
    await providerFailure(
      t,
      createPrimaryProvider(standIn.settings({ base_url: `${base_url}.` }), dispatcher).retrieve(ask),
    ),
    { kind: 'connection', message: /endpoint address not allowed/ },
    'nor with the root dot (localhost.)',
  )
  t.equal(standIn.requests.length, 0, 'the stand-in received no request')
})

t.test("the operator's allow-list: an address, a range or a host name is reached", async (t) => {
  const standIn = await startPrimaryStandIn({ docs: [DOC] })
  t.teardown(() => standIn.close())
  const byName = standIn.url.replace('127.0.0.1', 'localhost')
  for (const [entries, base_url] of [
    [['127.0.0.1'], standIn.url],
    [['127.0.0.0/8'], standIn.url],
    [['127.0.0.0/8'], byName],
    [['localhost'], byName],
  ] as const) {
    const { dispatcher, refusals } = guarded([...entries])
    const passages = await createPrimaryProvider(standIn.settings({ base_url }), dispatcher).retrieve(ask)
    t.match(passages, [{ title: DOC.title }], `${base_url} answers with ${entries}`)
    t.same(refusals, [])
  }
  t.equal(standIn.requests.length, 4, 'every allowed call arrived')
  const { dispatcher } = guarded(['localhost', '127.0.0.2'])
  const err = await providerFailure(t, createPrimaryProvider(standIn.settings(), dispatcher).retrieve(ask))
  t.match(err, { kind: 'connection' }, 'a listed name does not allow the address it resolves to when named by it')
  t.equal(standIn.requests.length, 4)
})

t.test('the compatibility provider and the LLM are guarded the same way', async (t) => {
  const compat = await startCompatibilityStandIn({ docs: [DOC] })
  const llm = await startLlmStandIn()
  t.teardown(() => Promise.all([compat.close(), llm.close()]))
  const { dispatcher, refusals } = guarded()
  // retries allowed, yet a refusal is not retried: trying the same address again cannot succeed
  const provider = createCompatibilityProvider(compat.settings({ max_retries: 3 }), dispatcher)
  t.match(await providerFailure(t, provider.retrieve(ask)), {
    provider: 'compatibility',
    kind: 'connection',
    message: /endpoint address not allowed/,
  })
  const err = await createLlmClient(llm.settings(), dispatcher)
    .complete([{ role: 'user', content: 'hello' }])
    .then(
      () => t.fail('expected an LlmError') as never,
      (e: unknown) => e as LlmError,
    )
  t.type(err, LlmError)
  t.match(err, { kind: 'connection', message: /^LLM failed: endpoint address not allowed \(127\.0\.0\.1\)/ })
  t.equal(compat.requests.length + llm.requests.length, 0, 'neither stand-in received a request')
  t.equal(refusals.length, 2, 'one refusal each: the compatibility provider did not retry its refused call')
  const allowed = guarded(['127.0.0.1']).dispatcher
  t.match(await createLlmClient(llm.settings(), allowed).complete([{ role: 'user', content: 'hello' }]), {
    content: /hello/,
  })
})

/** config-governance's event for a workspace's primary provider, its key sealed as it seals it. */
function primaryChanged(version: number, scope: Scope, primary: Record<string, unknown>, key?: string) {
  const box = createSecretBox(configEncryptionKeys({}, INTERNAL_SECRET).current)
  return {
    scope: 'workspace' as const,
    ...scope,
    version,
    change_id: `guard-${version}`,
    operation: 'update' as const,
    changed_sections: ['knowledge_provider'],
    config: { knowledge_provider: { primary } },
    secret_fingerprints: {},
    sealed_secrets: key ? { 'knowledge_provider.primary.api_key': box.seal(key) } : {},
    changed_at: new Date().toISOString(),
  }
}

async function stored(svc: AiService, scope: Scope, version: number) {
  await waitFor(() =>
    svc.db
      .selectFrom('ai_scoped_settings')
      .select('version')
      .where('tenant_id', '=', scope.tenant_id)
      .where('workspace_id', '=', scope.workspace_id)
      .where('version', '=', version)
      .executeTakeFirst(),
  )
}

inEachStorageMode(t, "a workspace's governed endpoint is guarded; the system's is not", async (t, mode) => {
  const system = await startPrimaryStandIn({ docs: [DOC] })
  const own = await startPrimaryStandIn({
    docs: [{ title: 'Acme refunds', content: 'Acme refunds are paid within 3 days.' }],
    apiKey: 'acme-secret-key',
    datasetId: 'acme-ds',
  })
  t.teardown(() => Promise.all([system.close(), own.close()]))
  const lines: string[] = []
  const logger = createRootLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } })
  const overrides: Partial<AiConfig> = { primary: system.settings(), scoped_settings_cache_ms: 0 }
  const { app, svc } = await aiApp(t, mode, {}, overrides, logger)
  const query = async (scope: Scope) =>
    (await call(app, agent(scope), 'POST', '/api/v1/ai/query', { query: 'when are refunds paid' })).json()

  // a workspace's own endpoint on loopback, no allow-list
  const section = { enabled: true, base_url: own.url, dataset_id: 'acme-ds' }
  await publish(svc, ConfigEvents.scopeChanged, primaryChanged(1, ACME, section, 'acme-secret-key'), ACME)
  await stored(svc, ACME, 1)
  // another workspace changes its dataset's tuning only: still the system's endpoint, not guarded
  const tuned = { enabled: true, search: { top_k: 2 } }
  await publish(svc, ConfigEvents.scopeChanged, primaryChanged(1, GLOBEX, tuned), GLOBEX)
  await stored(svc, GLOBEX, 1)

  const refused = await query(ACME)
  t.match(refused, { strategy: 'fallback' }, 'the query still answers (the next provider, the local knowledge base)')
  t.not(refused.source, 'primary', 'not from the refused provider')
  t.equal(own.requests.length, 0, 'the governed endpoint received no request')
  const status = (await call(app, agent(ACME), 'GET', '/api/v1/ai/status')).json()
  t.match(status.providers[0], {
    id: 'primary',
    healthy: false,
    health: { error: /endpoint address not allowed \(127\.0\.0\.1\)/ },
    breaker: { name: /^primary@[0-9a-f]{10}$/, failure_count: Number },
  })
  t.ok(status.providers[0].breaker.failure_count >= 1, "a refusal counts as a failure on the endpoint's own breaker")
  t.equal(own.requests.length, 0, 'nor did the health probe reach it')

  t.match(await query(GLOBEX), { source: 'primary', sources: [{ title: DOC.title }] }, 'the system layer on loopback')
  t.ok(system.requests.length >= 1)

  const warnings = lines.map((l) => JSON.parse(l)).filter((l) => /endpoint address not allowed/.test(l.msg))
  t.match(
    warnings[0],
    { level: 40, tenant_id: 'acme', workspace_id: 'support', dependency: 'primary', host: '127.0.0.1' },
    'logged at warn with the scope and the host',
  )
  t.notOk(
    lines.some((l) => l.includes('acme-secret-key')),
    'the key is never logged',
  )
})

inEachStorageMode(t, "with the host in AI_OUTBOUND_ALLOWED_HOSTS the workspace's endpoint answers", async (t, mode) => {
  const system = await startPrimaryStandIn({ docs: [DOC] })
  const own = await startPrimaryStandIn({
    docs: [{ title: 'Acme refunds', content: 'Acme refunds are paid within 3 days.' }],
  })
  t.teardown(() => Promise.all([system.close(), own.close()]))
  const overrides: Partial<AiConfig> = { primary: system.settings(), scoped_settings_cache_ms: 0 }
  const { app, svc } = await aiApp(t, mode, { AI_OUTBOUND_ALLOWED_HOSTS: '10.0.0.0/8,127.0.0.1' }, overrides)
  const section = { enabled: true, base_url: own.url, dataset_id: own.datasetId }
  await publish(svc, ConfigEvents.scopeChanged, primaryChanged(1, ACME, section, own.apiKey), ACME)
  await stored(svc, ACME, 1)
  const answer = (await call(app, agent(ACME), 'POST', '/api/v1/ai/query', { query: 'when are refunds paid' })).json()
  t.match(answer, { source: 'primary', sources: [{ title: 'Acme refunds' }] })
  t.ok(own.requests.length >= 1, 'the allowed endpoint was called')
})
