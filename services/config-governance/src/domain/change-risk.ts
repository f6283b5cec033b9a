// How risky a scoped config change is and what a reviewer must check afterwards (the earlier system's
// risk reasons and check ids, which its clients read; README "Governance"), and the records the governance rules read (governance.ts). Pure: documents in, plain values out.
import { type ConfigDocument, diffDocuments, sectionOf } from './config-paths.ts'

export type { ConfigDocument } from './config-paths.ts'

export type Operation = 'update' | 'rollback'
export type RiskLevel = 'low' | 'medium' | 'high'

/** A history entry as the rules see it: secrets in `before`/`after` are fingerprints. */
export type ChangeRecord = {
  id: string
  operation: Operation
  actor_user_id: string
  change_ref: string
  reason: string
  approval_ref: string | null
  before: ConfigDocument
  after: ConfigDocument
  created_at: string
  /** the rollback entry that undid or replaced this change, if one did: a failed verification stops blocking */
  rolled_back_by?: string | null
}

export type ApprovalRecord = {
  id: string
  approval_ref: string
  change_ref: string
  actor_user_id: string
  notes: string
  evidence: string[]
  created_at: string
}

export type VerificationCheck = {
  id: string
  status: 'passed' | 'failed' | 'skipped'
  notes?: string
}

export type VerificationRecord = {
  id: string
  change_id: string
  status: 'passed' | 'failed'
  actor_user_id: string
  notes: string
  evidence: string[]
  checks: VerificationCheck[]
  created_at: string
}

export type ChangeRisk = {
  risk_level: RiskLevel
  approval_required: boolean
  /** de-duplicated, sorted */
  risk_reasons: string[]
  /** sorted */
  changed_paths: string[]
}

/** A refusal of the rules, answered with this status and stable code. */
export type Refusal = {
  status: 400 | 403
  code: string
  message: string
}

export type TemplateCheck = {
  id: string
  /** a config section, or `scope`, `runtime`, `rollback` for the checks of every change */
  section: string
  risk_level: RiskLevel
  changed_paths: string[]
  title: string
  evidence_hint: string
  required: true
}

export type VerificationTemplate = {
  operation: Operation
  changed_sections: string[]
  changed_paths: string[]
  checks: TemplateCheck[]
}

interface Cluster {
  reason: string
  check: string
  section: string
  risk: RiskLevel
  paths: RegExp
  title: string
  hint: string
}

// The earlier system's path clusters, on our section names; a changed path may fall in none of them.
const CLUSTERS: readonly Cluster[] = [
  {
    reason: 'portal_public_surface_change',
    check: 'portal_public_surface_verified',
    section: 'portal',
    risk: 'medium',
    paths: /^portal\.(brand_name|logo_url|primary_color|secondary_color|support_email)$/,
    title: 'Portal public surface verified',
    hint: 'Show the portal with the new brand name, logo, colours and support e-mail (screenshot or page URL).',
  },
  {
    reason: 'portal_locale_change',
    check: 'portal_locale_contract_verified',
    section: 'portal',
    risk: 'medium',
    paths: /^portal\.(default_locale|locales)$/,
    title: 'Portal locale contract verified',
    hint: 'Show the portal opening in the default locale and switching to every listed locale.',
  },
  {
    reason: 'portal_widget_change',
    check: 'portal_widget_verified',
    section: 'portal',
    risk: 'medium',
    paths: /^portal\.widget\..+$/,
    title: 'Widget embedding and texts verified',
    hint: 'Show the widget on an allowed site (and refused on another) with its pre-chat form, greeting and offline message.',
  },
  {
    reason: 'llm_provider_endpoint_change',
    check: 'llm_provider_endpoint_verified',
    section: 'llm',
    risk: 'high',
    paths: /^llm\.(base_url|api_key|timeout_ms)$/,
    title: 'LLM provider endpoint verified',
    hint: 'Show a successful test completion through the new endpoint and key within the timeout (request id, latency).',
  },
  {
    reason: 'llm_model_contract_change',
    check: 'llm_model_contract_verified',
    section: 'llm',
    risk: 'medium',
    paths: /^llm\.(model|temperature|max_tokens)$/,
    title: 'LLM model contract verified',
    hint: 'Show a sample reply of the configured model with the new temperature and token limit, accepted by callers.',
  },
  {
    reason: 'knowledge_provider_endpoint_change',
    check: 'knowledge_provider_endpoint_verified',
    section: 'knowledge_provider',
    risk: 'high',
    paths: /^knowledge_provider\.(primary|compatibility)\.(base_url|api_key|timeout_ms|max_retries)$/,
    title: 'Knowledge provider endpoint verified',
    hint: 'Show a successful search against each changed provider endpoint with its key, within timeout and retries.',
  },
  {
    reason: 'knowledge_mapping_change',
    check: 'knowledge_mapping_verified',
    section: 'knowledge_provider',
    risk: 'high',
    paths:
      /^knowledge_provider\.(preferred|(primary|compatibility)\.enabled|primary\.dataset_id|compatibility\.(tenant_id|knowledge_base_id)|[^.]+\.search\..+)$/,
    title: 'Knowledge mapping verified',
    hint: 'Show searches reaching the intended provider and dataset / knowledge base, with relevant results.',
  },
  {
    reason: 'knowledge_provider_health_policy_change',
    check: 'knowledge_provider_health_check_verified',
    section: 'knowledge_provider',
    risk: 'medium',
    paths: /^knowledge_provider\.compatibility\.health_check\..+$/,
    title: 'Knowledge provider health check verified',
    hint: 'Show the compatibility provider health check passing with the new interval and timeout.',
  },
  {
    reason: 'session_risk_threshold_change',
    check: 'session_risk_score_threshold_verified',
    section: 'session_risk',
    risk: 'high',
    paths: /^session_risk\.(medium_risk_score|high_risk_score)$/,
    title: 'Session risk score thresholds verified',
    hint: 'Show sample sessions scored against the new medium and high thresholds, with the resulting risk levels.',
  },
  {
    reason: 'session_risk_window_change',
    check: 'session_risk_window_verified',
    section: 'session_risk',
    risk: 'medium',
    paths:
      /^session_risk\.(hot_refresh_window_minutes|recent_refresh_window_minutes|today_refresh_window_hours|rapid_change_window_hours|stale_activity_window_days)$/,
    title: 'Session risk windows verified',
    hint: 'Show refresh, rapid-change and stale-activity detection using the new windows (sample evaluation or logs).',
  },
  {
    reason: 'session_risk_concurrency_change',
    check: 'session_risk_concurrency_threshold_verified',
    section: 'session_risk',
    risk: 'medium',
    paths: /^session_risk\.(multi_public_ip_threshold|many_sessions_threshold|hot_refresh_family_threshold)$/,
    title: 'Session risk concurrency thresholds verified',
    hint: 'Show multi-IP, many-session and refresh-family detection firing at the new thresholds.',
  },
]

const SECTION_CHECKS: Record<string, { id: string; title: string; hint: string }> = {
  portal: {
    id: 'portal_render_verified',
    title: 'Portal renders for the scope',
    hint: 'Open the portal of this tenant/workspace and confirm it renders without errors.',
  },
  llm: {
    id: 'llm_provider_verified',
    title: 'LLM provider answers for the scope',
    hint: 'Send a test prompt through the AI path of this tenant/workspace and record the reply.',
  },
  knowledge_provider: {
    id: 'knowledge_provider_verified',
    title: 'Knowledge provider answers for the scope',
    hint: 'Run a knowledge search for this tenant/workspace and record which provider answered.',
  },
  session_risk: {
    id: 'session_risk_policy_verified',
    title: 'Session risk policy applied for the scope',
    hint: 'Read the effective session risk policy of this tenant/workspace and confirm it shows the new values.',
  },
}

// The checks of every change (and of every rollback), over all its changed paths.
const GENERAL_CHECKS = {
  change_scope_reviewed: {
    section: 'scope',
    title: 'Change scope reviewed',
    hint: 'Confirm the change touched only the intended tenant/workspace and the listed paths, as its reason says.',
  },
  rollback_baseline_restored: {
    section: 'rollback',
    title: 'Rollback baseline restored',
    hint: 'Confirm the effective configuration of the scope matches the restored snapshot.',
  },
  runtime_effect_confirmed: {
    section: 'runtime',
    title: 'Runtime effect confirmed',
    hint: 'Confirm the running services use the new effective configuration (effective config read, logs or metrics).',
  },
}

const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 }
const higher = (a: RiskLevel, b: RiskLevel) => (RANK[b] > RANK[a] ? b : a)

interface Analysis {
  risk: ChangeRisk
  template: VerificationTemplate
}

export function analyseChange(before: ConfigDocument, after: ConfigDocument, operation: Operation): Analysis {
  const { changed_paths, changed_sections } = diffDocuments(before, after)
  if (changed_paths.length === 0 && operation === 'update') {
    return {
      risk: { risk_level: 'low', approval_required: false, risk_reasons: [], changed_paths },
      template: { operation, changed_sections, changed_paths, checks: [] },
    }
  }
  const hits = CLUSTERS.map((c) => ({ cluster: c, paths: changed_paths.filter((p) => c.paths.test(p)) })).filter(
    (h) => h.paths.length > 0,
  )
  let level: RiskLevel = 'medium'
  const reasons = new Set(['scoped_config_change'])
  if (operation === 'rollback') {
    level = 'high'
    reasons.add('rollback_operation')
  }
  for (const { cluster } of hits) {
    level = higher(level, cluster.risk)
    reasons.add(cluster.reason)
  }
  const risk: ChangeRisk = {
    risk_level: level,
    approval_required: level === 'high',
    risk_reasons: [...reasons].sort(),
    changed_paths,
  }

  const check = (
    id: string,
    section: string,
    risk_level: RiskLevel,
    paths: string[],
    title: string,
    hint: string,
  ): TemplateCheck => ({ id, section, risk_level, changed_paths: paths, title, evidence_hint: hint, required: true })
  const general = (id: keyof typeof GENERAL_CHECKS, risk_level: RiskLevel) =>
    check(id, GENERAL_CHECKS[id].section, risk_level, changed_paths, GENERAL_CHECKS[id].title, GENERAL_CHECKS[id].hint)
  const checks = [general('change_scope_reviewed', level)]
  if (operation === 'rollback') checks.push(general('rollback_baseline_restored', 'high'))
  for (const section of changed_sections) {
    const paths = changed_paths.filter((p) => sectionOf(p) === section)
    const own = hits.filter((h) => h.cluster.section === section)
    const sectionCheck = SECTION_CHECKS[section]
    if (sectionCheck) {
      const sectionLevel = own.reduce<RiskLevel>((l, h) => higher(l, h.cluster.risk), 'medium')
      checks.push(check(sectionCheck.id, section, sectionLevel, paths, sectionCheck.title, sectionCheck.hint))
    }
    for (const { cluster, paths } of own) {
      checks.push(check(cluster.check, section, cluster.risk, paths, cluster.title, cluster.hint))
    }
  }
  checks.push(general('runtime_effect_confirmed', level))
  return { risk, template: { operation, changed_sections, changed_paths, checks } }
}

/** The risk of turning `before` into `after` (documents with secrets as fingerprints). */
export function assessChange(before: ConfigDocument, after: ConfigDocument, operation: Operation): ChangeRisk {
  return analyseChange(before, after, operation).risk
}

/** The checks a reviewer must report on after the change; none for an update that changes nothing. */
export function verificationTemplate(
  before: ConfigDocument,
  after: ConfigDocument,
  operation: Operation,
): VerificationTemplate {
  return analyseChange(before, after, operation).template
}
