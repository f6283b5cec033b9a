import type { IpLabels } from '../ip-intel/index.ts'
import type { SessionRiskPolicy } from './session-risk-policy.ts'

/** What risk needs of an auth session row (a subset of `auth_sessions`). */
export interface RiskSessionInput {
  id: string
  status: string
  token_version: number
  client_ip: string
  device_fingerprint: string
  created_at: string
  last_seen_at: string
  last_refresh_at: string | null
}

export type RiskLevel = 'low' | 'medium' | 'high'
export type RefreshRecency = 'hot' | 'recent' | 'today' | 'stale' | 'unknown'

/** The auth session view, the same in self-service and management lists but for `is_current` (self-service only). */
export interface SessionView {
  session_id: string
  status: string
  token_version: number
  device_fingerprint: string
  network_label: string
  location_label: string
  risk_score: number
  risk_level: RiskLevel
  risk_reasons: string[]
  family_public_ip_count: number
  family_device_count: number
  active_session_count: number
  family_hot_refresh_count: number
  reference_session_id: string
  ip_drift: boolean
  device_drift: boolean
  rapid_ip_change: boolean
  rapid_device_change: boolean
  rapid_refresh_activity: boolean
  refresh_recency: RefreshRecency
  is_current?: boolean
}

/** Points per reason: `risk_score` is the sum of the reasons that apply, and `risk_reasons` keeps this order. */
export const RISK_REASONS = [
  ['revoked_session', 3],
  ['not_current_session', 1],
  ['public_network', 1],
  ['non_geolocatable_network', 1],
  ['multi_public_ip_family', 1],
  ['many_active_sessions', 1],
  ['ip_drift', 1],
  ['device_drift', 1],
  ['rapid_ip_change', 1],
  ['rapid_device_change', 1],
  ['rapid_refresh_activity', 1],
  ['stale_activity', 1],
  ['missing_device_fingerprint', 1],
] as const
export type RiskReason = (typeof RISK_REASONS)[number][0]

export interface SessionViewOptions {
  /** the caller's own session: set on the self-service side only, which also adds `is_current` */
  currentSessionId?: string | undefined
  now: Date
  policy: SessionRiskPolicy
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

function ms(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined
  const t = Date.parse(ts)
  return Number.isNaN(t) ? undefined : t
}

const isActive = (s: RiskSessionInput) => s.status === 'active'

/** Most recently seen active session (falling back to any session); ties broken by creation, then id. */
export function referenceSession<S extends RiskSessionInput>(sessions: readonly S[]): S | undefined {
  const pool = sessions.some(isActive) ? sessions.filter(isActive) : sessions
  const newer = (a: S, b: S) =>
    (ms(a.last_seen_at) ?? 0) - (ms(b.last_seen_at) ?? 0) ||
    (ms(a.created_at) ?? 0) - (ms(b.created_at) ?? 0) ||
    (a.id > b.id ? 1 : a.id < b.id ? -1 : 0)
  let best: S | undefined
  for (const s of pool) if (!best || newer(s, best) > 0) best = s
  return best
}

/** How recently the session's refresh token was rotated; a session never refreshed has no answer. */
export function refreshRecency(lastRefreshAt: string | null, now: Date, p: SessionRiskPolicy): RefreshRecency {
  const t = ms(lastRefreshAt)
  if (t === undefined) return 'unknown'
  const age = Math.max(0, now.getTime() - t)
  if (age <= p.hot_refresh_window_minutes * MINUTE) return 'hot'
  if (age <= p.recent_refresh_window_minutes * MINUTE) return 'recent'
  if (age <= p.today_refresh_window_hours * HOUR) return 'today'
  return 'stale'
}

export function riskLevel(score: number, p: SessionRiskPolicy): RiskLevel {
  if (score >= p.high_risk_score) return 'high'
  if (score >= p.medium_risk_score) return 'medium'
  return 'low'
}

/**
 * Views of one user's auth sessions (the "family"), with labels already resolved. Pure: the same input
 * and `now` give the same views. Family counts are taken over active sessions, since a revoked session
 * no longer speaks for the account.
 */
export function computeSessionViews(
  sessions: readonly RiskSessionInput[],
  labels: ReadonlyMap<string, IpLabels>,
  opts: SessionViewOptions,
): SessionView[] {
  const { policy: p, now } = opts
  const nowMs = now.getTime()
  const labelOf = (s: RiskSessionInput): IpLabels =>
    labels.get(s.client_ip) ?? { network_label: 'unknown', location_label: 'unknown' }
  const active = sessions.filter(isActive)
  const publicIps = new Set(active.filter((s) => labelOf(s).network_label === 'public').map((s) => s.client_ip))
  const devices = new Set(active.map((s) => s.device_fingerprint).filter(Boolean))
  const hotWindow = p.hot_refresh_window_minutes * MINUTE
  const isHot = (s: RiskSessionInput) => {
    const t = ms(s.last_refresh_at)
    return t !== undefined && nowMs - t <= hotWindow
  }
  const hotCount = active.filter(isHot).length
  const ref = referenceSession(sessions)
  const refSeen = ms(ref?.last_seen_at)

  return sessions.map((s) => {
    const { network_label, location_label } = labelOf(s)
    const isRef = ref !== undefined && ref.id === s.id
    const ipDrift = !isRef && ref !== undefined && !!s.client_ip && !!ref.client_ip && s.client_ip !== ref.client_ip
    const deviceDrift =
      !isRef &&
      ref !== undefined &&
      !!s.device_fingerprint &&
      !!ref.device_fingerprint &&
      s.device_fingerprint !== ref.device_fingerprint
    const seen = ms(s.last_seen_at)
    const withinRapid =
      seen !== undefined && refSeen !== undefined && Math.abs(refSeen - seen) <= p.rapid_change_window_hours * HOUR
    const rapidRefresh = isHot(s) && hotCount >= p.hot_refresh_family_threshold
    const hits: Record<RiskReason, boolean> = {
      revoked_session: !isActive(s),
      not_current_session: s.id !== opts.currentSessionId,
      public_network: network_label === 'public',
      non_geolocatable_network: location_label === 'documentation' || location_label === 'shared_address_space',
      multi_public_ip_family: network_label === 'public' && publicIps.size >= p.multi_public_ip_threshold,
      many_active_sessions: active.length >= p.many_sessions_threshold,
      ip_drift: ipDrift,
      device_drift: deviceDrift,
      rapid_ip_change: ipDrift && withinRapid,
      rapid_device_change: deviceDrift && withinRapid,
      rapid_refresh_activity: rapidRefresh,
      stale_activity: seen !== undefined && nowMs - seen > p.stale_activity_window_days * DAY,
      missing_device_fingerprint: !s.device_fingerprint,
    }
    let score = 0
    const reasons: string[] = []
    for (const [reason, points] of RISK_REASONS) {
      if (!hits[reason]) continue
      reasons.push(reason)
      score += points
    }
    const view: SessionView = {
      session_id: s.id,
      status: s.status,
      token_version: s.token_version,
      device_fingerprint: s.device_fingerprint,
      network_label,
      location_label,
      risk_score: score,
      risk_level: riskLevel(score, p),
      risk_reasons: reasons,
      family_public_ip_count: publicIps.size,
      family_device_count: devices.size,
      active_session_count: active.length,
      family_hot_refresh_count: hotCount,
      reference_session_id: ref?.id ?? '',
      ip_drift: hits.ip_drift,
      device_drift: hits.device_drift,
      rapid_ip_change: hits.rapid_ip_change,
      rapid_device_change: hits.rapid_device_change,
      rapid_refresh_activity: rapidRefresh,
      refresh_recency: refreshRecency(s.last_refresh_at, now, p),
    }
    if (opts.currentSessionId !== undefined) view.is_current = s.id === opts.currentSessionId
    return view
  })
}
