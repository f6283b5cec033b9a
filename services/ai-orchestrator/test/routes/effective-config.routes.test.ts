import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { applyScopedSettings } from '../../src/db/scoped-settings.repository.ts'
import { ACME, agent, aiApp, as } from '../helpers/app.ts'

const CG = testPrincipal({ user_id: 'config-governance', kind: 'service', roles: [], permissions: ['*'] })
const URL_OF = (tenant: string, ws = '') => `/internal/config/effective?tenant_id=${tenant}&workspace_id=${ws}`

inEachStorageMode(t, "ai-orchestrator's effective LLM and knowledge provider per scope", async (t, mode) => {
  const { app, svc } = await aiApp(t, mode, {
    LLM_MODEL: 'system-model',
    LLM_API_KEY: 'system-llm-key',
    PRIMARY_PROVIDER_TOP_K: '7',
  })
  const get = async (url: string, who = CG) => app.inject({ method: 'GET', url, headers: await as(who) })
  const fieldsOf = async (url: string) => {
    const res = await get(url)
    t.equal(res.statusCode, 200, res.body)
    return Object.fromEntries(res.json().fields.map((f: { path: string }) => [f.path, f]))
  }

  const refused = await get(URL_OF('acme', 'support'), agent())
  t.equal(refused.statusCode, 403, 'an agent (any user) is refused')
  t.equal(refused.json().code, 'AI_SERVICE_ONLY')
  t.equal((await get('/internal/config/effective?tenant_id=../x')).statusCode, 400, 'a bad tenant id is a 400')

  let f = await fieldsOf(URL_OF('acme', 'support'))
  t.same(f['llm.model'], { path: 'llm.model', value: 'system-model', source: 'system' }, 'LLM_MODEL: system')
  t.same(f['llm.max_tokens'], { path: 'llm.max_tokens', value: 1000, source: 'default' }, 'unset: code default')
  t.same(f['llm.api_key'], { path: 'llm.api_key', value: null, source: 'system', secret: true, set: true })
  t.same(f['knowledge_provider.primary.search.top_k'], {
    path: 'knowledge_provider.primary.search.top_k',
    value: 7,
    source: 'system',
  })
  t.match(f['knowledge_provider.primary.api_key'], { value: null, source: 'default', set: false })
  t.notOk(JSON.stringify(f).includes('system-llm-key'), 'no key in the answer')

  const now = new Date().toISOString()
  await applyScopedSettings(svc.db, {
    tenant_id: 'acme',
    workspace_id: '',
    llm: { model: 'tenant-model', temperature: 0.2 },
    knowledge_provider: null,
    sealed_secrets: {},
    version: 1,
    updated_at: now,
  })
  await applyScopedSettings(svc.db, {
    ...ACME,
    llm: { model: 'workspace-model', base_url: 'https://llm.acme.example/v1', api_key: '[REDACTED]' },
    knowledge_provider: { preferred: 'compatibility', compatibility: { search: { default_limit: 9 } } },
    sealed_secrets: {},
    version: 1,
    updated_at: now,
  })
  // another tenant's workspace named like acme's: never part of acme's answer
  await applyScopedSettings(svc.db, {
    tenant_id: 'globex',
    workspace_id: 'support',
    llm: { max_tokens: 5 },
    knowledge_provider: null,
    sealed_secrets: {},
    version: 1,
    updated_at: now,
  })

  f = await fieldsOf(URL_OF('acme', 'support'))
  t.match(f['llm.model'], { value: 'workspace-model', source: 'workspace' }, 'the workspace beats the tenant')
  t.match(f['llm.temperature'], { value: 0.2, source: 'tenant' }, 'the tenant beats the system')
  t.match(f['llm.max_tokens'], { value: 1000, source: 'default' }, "globex's override is not acme's")
  t.match(
    f['llm.api_key'],
    { value: null, source: 'workspace', set: false },
    'a workspace endpoint without its own key runs with none (never the system key)',
  )
  t.match(f['knowledge_provider.preferred'], { value: 'compatibility', source: 'workspace' })
  t.match(f['knowledge_provider.compatibility.search.default_limit'], { value: 9, source: 'workspace' })

  f = await fieldsOf(URL_OF('acme'))
  t.match(f['llm.model'], { value: 'tenant-model', source: 'tenant' }, "the tenant's own scope")
  t.match(f['llm.api_key'], { source: 'system', set: true })
  f = await fieldsOf(URL_OF('globex', 'support'))
  t.match(f['llm.max_tokens'], { value: 5, source: 'workspace' })
  t.match(f['llm.model'], { value: 'system-model', source: 'system' }, "acme's overrides are not globex's")
})
