import t from 'tap'
import {
  diffDocuments,
  isSecretPath,
  leafPaths,
  maskSecrets,
  REDACTED,
  SECRET_PATHS,
} from '../../src/domain/config-paths.ts'

t.test('secret paths: the three provider keys', async (t) => {
  t.same([...SECRET_PATHS].sort(), [
    'knowledge_provider.compatibility.api_key',
    'knowledge_provider.primary.api_key',
    'llm.api_key',
  ])
  t.ok(isSecretPath('llm.api_key'))
  t.notOk(isSecretPath('llm.base_url'))
  t.notOk(isSecretPath('knowledge_provider.api_key'))
})

t.test('leafPaths: dotted leaves, arrays whole, nothing for null, undefined and empty objects', async (t) => {
  const leaves = leafPaths({
    portal: { brand_name: 'Acme', locales: ['en-US', 'de-DE'], logo_url: undefined, support_email: null as never },
    llm: {},
    knowledge_provider: { primary: { enabled: false, search: { top_k: 0 } }, compatibility: { health_check: {} } },
  })
  t.same(Object.fromEntries(leaves), {
    'portal.brand_name': 'Acme',
    'portal.locales': ['en-US', 'de-DE'],
    'knowledge_provider.primary.enabled': false,
    'knowledge_provider.primary.search.top_k': 0,
  })
  t.equal(leafPaths({}).size, 0)
  t.equal(leafPaths({ tenant_id: 't1', other: { a: 1 } }).size, 0, 'only the config sections are read')
})

t.test('diffDocuments: added, removed, updated; sorted paths and sections', async (t) => {
  const diff = diffDocuments(
    { portal: { brand_name: 'Old', locales: ['en-US'] }, session_risk: { high_risk_score: 8 } },
    { portal: { brand_name: 'New', locales: ['en-US', 'de-DE'] }, llm: { model: 'm1' } },
  )
  t.same(diff.changed_paths, ['llm.model', 'portal.brand_name', 'portal.locales', 'session_risk.high_risk_score'])
  t.same(diff.changed_sections, ['llm', 'portal', 'session_risk'])
  t.same(diff.changes, [
    { path: 'llm.model', type: 'added', before: null, after: 'm1' },
    { path: 'portal.brand_name', type: 'updated', before: 'Old', after: 'New' },
    { path: 'portal.locales', type: 'updated', before: ['en-US'], after: ['en-US', 'de-DE'] },
    { path: 'session_risk.high_risk_score', type: 'removed', before: 8, after: null },
  ])
})

t.test('diffDocuments: equal values and empty sections are no change', async (t) => {
  const doc = { portal: { locales: ['en-US'] }, knowledge_provider: { primary: { search: { top_k: 3 } } } }
  t.same(diffDocuments(doc, structuredClone(doc)).changed_paths, [])
  t.same(diffDocuments({}, { portal: {}, llm: { base_url: undefined } }).changes, [])
  t.same(diffDocuments({ llm: { temperature: 0 } }, { llm: { temperature: 0 } }).changes, [])
  t.same(diffDocuments({ llm: { temperature: 0 } }, {}).changes, [
    { path: 'llm.temperature', type: 'removed', before: 0, after: null },
  ])
})

t.test('diffDocuments: secrets compare by fingerprint but always show as [REDACTED]', async (t) => {
  const diff = diffDocuments(
    { llm: { api_key: 'sha256:aaaaaaaaaaaa' }, knowledge_provider: { primary: { api_key: 'sha256:bbbbbbbbbbbb' } } },
    {
      llm: { api_key: 'sha256:cccccccccccc' },
      knowledge_provider: {
        primary: { api_key: 'sha256:bbbbbbbbbbbb' },
        compatibility: { api_key: 'sha256:dddddddddddd' },
      },
    },
  )
  t.same(diff.changes, [
    { path: 'knowledge_provider.compatibility.api_key', type: 'added', before: null, after: REDACTED },
    { path: 'llm.api_key', type: 'updated', before: REDACTED, after: REDACTED },
  ])
  t.notMatch(JSON.stringify(diff), /sha256:/, 'no fingerprint leaves through a diff')
  t.same(diffDocuments({ llm: { api_key: 'sha256:aaaaaaaaaaaa' } }, {}).changes, [
    { path: 'llm.api_key', type: 'removed', before: REDACTED, after: null },
  ])
})

t.test('maskSecrets: a deep copy with present secrets replaced', async (t) => {
  const doc = {
    llm: { api_key: 'k1', model: 'm' },
    knowledge_provider: { compatibility: { api_key: 'k2', search: { strategy: 'hybrid' } }, primary: {} },
  }
  const masked = maskSecrets(doc)
  t.same(masked, {
    llm: { api_key: REDACTED, model: 'm' },
    knowledge_provider: { compatibility: { api_key: REDACTED, search: { strategy: 'hybrid' } }, primary: {} },
  })
  t.equal(doc.llm.api_key, 'k1', 'the given document is untouched')
  t.not(masked.knowledge_provider.compatibility.search, doc.knowledge_provider.compatibility.search)

  const seen: Array<[unknown, string]> = []
  const custom = maskSecrets(doc, (value, path) => {
    seen.push([value, path])
    return `fp(${value})`
  })
  t.equal(custom.llm.api_key, 'fp(k1)')
  t.same(seen.sort(), [
    ['k1', 'llm.api_key'],
    ['k2', 'knowledge_provider.compatibility.api_key'],
  ])
  t.same(maskSecrets({ portal: { brand_name: 'x' } }), { portal: { brand_name: 'x' } }, 'no secrets, nothing added')
})
