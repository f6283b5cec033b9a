import t from 'tap'
import { assessChange, verificationTemplate } from '../../src/domain/change-risk.ts'
import type { ConfigDocument } from '../../src/domain/config-paths.ts'

/** A one-leaf document from a dotted path. */
function docAt(path: string, value: unknown): ConfigDocument {
  const parts = path.split('.')
  let node: unknown = value
  for (const part of parts.reverse()) node = { [part]: node }
  return node as ConfigDocument
}

type Risk = 'medium' | 'high'
const KP = 'knowledge_provider'
const SR = 'session_risk'
/** [paths, reason, check, risk]: every path of the cluster */
const CLUSTERS: Array<[paths: string[], reason: string, check: string, risk: Risk]> = [
  [
    ['llm.base_url', 'llm.api_key', 'llm.timeout_ms'],
    'llm_provider_endpoint_change',
    'llm_provider_endpoint_verified',
    'high',
  ],
  [
    ['llm.model', 'llm.temperature', 'llm.max_tokens'],
    'llm_model_contract_change',
    'llm_model_contract_verified',
    'medium',
  ],
  [
    ['primary', 'compatibility'].flatMap((p) =>
      ['base_url', 'api_key', 'timeout_ms', 'max_retries'].map((k) => `${KP}.${p}.${k}`),
    ),
    'knowledge_provider_endpoint_change',
    'knowledge_provider_endpoint_verified',
    'high',
  ],
  [
    [
      `${KP}.preferred`,
      `${KP}.primary.enabled`,
      `${KP}.compatibility.enabled`,
      `${KP}.primary.dataset_id`,
      `${KP}.compatibility.tenant_id`,
      `${KP}.compatibility.knowledge_base_id`,
      `${KP}.primary.search.top_k`,
      `${KP}.primary.search.reranking_enable`,
      `${KP}.compatibility.search.strategy`,
    ],
    'knowledge_mapping_change',
    'knowledge_mapping_verified',
    'high',
  ],
  [
    [`${KP}.compatibility.health_check.interval_seconds`, `${KP}.compatibility.health_check.timeout_ms`],
    'knowledge_provider_health_policy_change',
    'knowledge_provider_health_check_verified',
    'medium',
  ],
  [
    ['brand_name', 'logo_url', 'primary_color', 'secondary_color', 'support_email'].map((k) => `portal.${k}`),
    'portal_public_surface_change',
    'portal_public_surface_verified',
    'medium',
  ],
  [['portal.default_locale', 'portal.locales'], 'portal_locale_change', 'portal_locale_contract_verified', 'medium'],
  [
    [`${SR}.medium_risk_score`, `${SR}.high_risk_score`],
    'session_risk_threshold_change',
    'session_risk_score_threshold_verified',
    'high',
  ],
  [
    [
      'hot_refresh_window_minutes',
      'recent_refresh_window_minutes',
      'today_refresh_window_hours',
      'rapid_change_window_hours',
      'stale_activity_window_days',
    ].map((k) => `${SR}.${k}`),
    'session_risk_window_change',
    'session_risk_window_verified',
    'medium',
  ],
  [
    ['multi_public_ip_threshold', 'many_sessions_threshold', 'hot_refresh_family_threshold'].map((k) => `${SR}.${k}`),
    'session_risk_concurrency_change',
    'session_risk_concurrency_threshold_verified',
    'medium',
  ],
]

const SECTION_CHECK: Record<string, string> = {
  portal: 'portal_render_verified',
  llm: 'llm_provider_verified',
  knowledge_provider: 'knowledge_provider_verified',
  session_risk: 'session_risk_policy_verified',
}

t.test('every path cluster: its reason, risk and check', async (t) => {
  for (const [path, reason, check, risk] of CLUSTERS.flatMap(([paths, ...rest]) =>
    paths.map((p) => [p, ...rest] as const),
  )) {
    const section = path.split('.')[0] as string
    const after = docAt(path, 'x')
    t.same(
      assessChange({}, after, 'update'),
      {
        risk_level: risk,
        approval_required: risk === 'high',
        risk_reasons: [reason, 'scoped_config_change'].sort(),
        changed_paths: [path],
      },
      path,
    )
    const template = verificationTemplate({}, after, 'update')
    t.same(
      template.checks.map((c) => c.id),
      ['change_scope_reviewed', SECTION_CHECK[section], check, 'runtime_effect_confirmed'],
      `${path}: checks`,
    )
    t.match(
      template.checks.find((c) => c.id === check),
      { section, risk_level: risk, changed_paths: [path], required: true, title: /verified/ },
      `${path}: cluster check`,
    )
    t.same(template.checks.find((c) => c.id === check)?.changed_paths, [path])
    t.match(
      template.checks.find((c) => c.id === SECTION_CHECK[section]),
      { risk_level: risk, changed_paths: [path] },
    )
  }
})

t.test('a change over several clusters: reasons de-duplicated and sorted, highest risk wins', async (t) => {
  const before: ConfigDocument = { llm: { model: 'm1', api_key: 'sha256:aaaaaaaaaaaa' }, portal: { brand_name: 'A' } }
  const after: ConfigDocument = {
    llm: { model: 'm2', temperature: 1, api_key: 'sha256:bbbbbbbbbbbb' },
    portal: { brand_name: 'B', default_locale: 'de-DE' },
  }
  t.same(assessChange(before, after, 'update'), {
    risk_level: 'high',
    approval_required: true,
    risk_reasons: [
      'llm_model_contract_change',
      'llm_provider_endpoint_change',
      'portal_locale_change',
      'portal_public_surface_change',
      'scoped_config_change',
    ],
    changed_paths: ['llm.api_key', 'llm.model', 'llm.temperature', 'portal.brand_name', 'portal.default_locale'],
  })
  const template = verificationTemplate(before, after, 'update')
  t.same(template.changed_sections, ['llm', 'portal'])
  t.same(template.changed_paths, [
    'llm.api_key',
    'llm.model',
    'llm.temperature',
    'portal.brand_name',
    'portal.default_locale',
  ])
  t.same(
    template.checks.map((c) => [c.id, c.risk_level, c.changed_paths]),
    [
      ['change_scope_reviewed', 'high', template.changed_paths],
      ['llm_provider_verified', 'high', ['llm.api_key', 'llm.model', 'llm.temperature']],
      ['llm_provider_endpoint_verified', 'high', ['llm.api_key']],
      ['llm_model_contract_verified', 'medium', ['llm.model', 'llm.temperature']],
      ['portal_render_verified', 'medium', ['portal.brand_name', 'portal.default_locale']],
      ['portal_public_surface_verified', 'medium', ['portal.brand_name']],
      ['portal_locale_contract_verified', 'medium', ['portal.default_locale']],
      ['runtime_effect_confirmed', 'high', template.changed_paths],
    ],
  )
  for (const c of template.checks) {
    t.ok(c.title && c.evidence_hint && c.required === true, `${c.id} has a title, a hint and is required`)
    t.match(`${c.title} ${c.evidence_hint}`, /^[\x20-\x7e]+$/, `${c.id} reads in English`)
  }
})

t.test('a path in no cluster: medium, scoped_config_change only', async (t) => {
  t.same(assessChange({}, { portal: { extra: 1 } }, 'update'), {
    risk_level: 'medium',
    approval_required: false,
    risk_reasons: ['scoped_config_change'],
    changed_paths: ['portal.extra'],
  })
  t.same(
    verificationTemplate({}, { portal: { extra: 1 } }, 'update').checks.map((c) => [c.id, c.risk_level]),
    [
      ['change_scope_reviewed', 'medium'],
      ['portal_render_verified', 'medium'],
      ['runtime_effect_confirmed', 'medium'],
    ],
  )
})

t.test('an update that changes nothing: low, no approval, no checks', async (t) => {
  const doc: ConfigDocument = { llm: { api_key: 'sha256:aaaaaaaaaaaa', model: 'm' } }
  t.same(assessChange(doc, structuredClone(doc), 'update'), {
    risk_level: 'low',
    approval_required: false,
    risk_reasons: [],
    changed_paths: [],
  })
  t.same(verificationTemplate(doc, doc, 'update'), {
    operation: 'update',
    changed_sections: [],
    changed_paths: [],
    checks: [],
  })
})

t.test('a rollback is high risk, even one that changes nothing', async (t) => {
  const risk = assessChange({ portal: { brand_name: 'B' } }, { portal: { brand_name: 'A' } }, 'rollback')
  t.same(risk, {
    risk_level: 'high',
    approval_required: true,
    risk_reasons: ['portal_public_surface_change', 'rollback_operation', 'scoped_config_change'],
    changed_paths: ['portal.brand_name'],
  })
  const template = verificationTemplate({ portal: { brand_name: 'B' } }, { portal: { brand_name: 'A' } }, 'rollback')
  t.equal(template.operation, 'rollback')
  t.same(
    template.checks.map((c) => c.id),
    [
      'change_scope_reviewed',
      'rollback_baseline_restored',
      'portal_render_verified',
      'portal_public_surface_verified',
      'runtime_effect_confirmed',
    ],
  )
  t.match(template.checks[1], { section: 'rollback', risk_level: 'high' })
  t.same(template.checks[1]?.changed_paths, ['portal.brand_name'])

  t.same(assessChange({}, {}, 'rollback'), {
    risk_level: 'high',
    approval_required: true,
    risk_reasons: ['rollback_operation', 'scoped_config_change'],
    changed_paths: [],
  })
  t.same(
    verificationTemplate({}, {}, 'rollback').checks.map((c) => c.id),
    ['change_scope_reviewed', 'rollback_baseline_restored', 'runtime_effect_confirmed'],
  )
})

t.test('a changed secret is a changed path, shown nowhere', async (t) => {
  const before = { knowledge_provider: { compatibility: { api_key: 'sha256:aaaaaaaaaaaa' } } }
  const after = { knowledge_provider: { compatibility: { api_key: 'sha256:bbbbbbbbbbbb' } } }
  t.match(assessChange(before, after, 'update'), {
    risk_level: 'high',
    changed_paths: ['knowledge_provider.compatibility.api_key'],
  })
  t.notMatch(JSON.stringify(verificationTemplate(before, after, 'update')), /sha256:/)
})
