import t from 'tap'
import {
  computeSessionViews,
  RISK_REASONS,
  type RiskSessionInput,
  referenceSession,
  refreshRecency,
  riskLevel,
} from '../../src/domain/session-risk.ts'
import { DEFAULT_SESSION_RISK_POLICY as P } from '../../src/domain/session-risk-policy.ts'
import { classifyIp, heuristicIpIntel, type IpLabels, lookupAll } from '../../src/ip-intel/index.ts'

const NOW = new Date('2026-11-22T12:00:00.000Z')
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString()

function session(id: string, over: Partial<RiskSessionInput> = {}): RiskSessionInput {
  return {
    id,
    status: 'active',
    token_version: 1,
    client_ip: '10.0.0.1',
    device_fingerprint: `dev-${id}`,
    created_at: ago(60),
    last_seen_at: ago(5),
    last_refresh_at: null,
    ...over,
  }
}

function labelsFor(sessions: RiskSessionInput[]): Map<string, IpLabels> {
  return new Map(sessions.map((s) => [s.client_ip, classifyIp(s.client_ip)]))
}

function views(sessions: RiskSessionInput[], currentSessionId?: string, policy = P) {
  return computeSessionViews(sessions, labelsFor(sessions), { now: NOW, policy, currentSessionId })
}

t.test('a lone, private, current session with a fingerprint has no risk', async (t) => {
  const [v] = views([session('a')], 'a')
  t.same(v?.risk_reasons, [])
  t.equal(v?.risk_score, 0)
  t.equal(v?.risk_level, 'low')
  t.equal(v?.is_current, true)
  t.equal(v?.reference_session_id, 'a')
  t.equal(v?.network_label, 'private')
  t.equal(v?.active_session_count, 1)
  t.equal(v?.family_device_count, 1)
  t.equal(v?.refresh_recency, 'unknown')
})

t.test('management views: not_current_session always, no is_current field', async (t) => {
  const [v] = views([session('a')])
  t.same(v?.risk_reasons, ['not_current_session'])
  t.notOk('is_current' in (v ?? {}))
})

t.test('revoked_session weighs 3 and the view stays listed', async (t) => {
  const vs = views([session('a'), session('b', { status: 'revoked', last_seen_at: ago(1) })], 'a')
  const b = vs.find((v) => v.session_id === 'b')
  t.ok(b?.risk_reasons.includes('revoked_session'))
  t.equal(b?.reference_session_id, 'a', 'reference is the most recent ACTIVE session')
  t.equal(b?.active_session_count, 1)
  t.same(b?.risk_reasons, ['revoked_session', 'not_current_session', 'device_drift', 'rapid_device_change'])
  t.equal(b?.risk_score, 3 + 1 + 1 + 1)
  t.equal(b?.risk_level, 'high')
})

t.test('public_network and non_geolocatable_network', async (t) => {
  const [pub] = views([session('a', { client_ip: '8.8.8.8' })], 'a')
  t.same(pub?.risk_reasons, ['public_network'])
  const [doc] = views([session('a', { client_ip: '203.0.113.5' })], 'a')
  t.same(doc?.risk_reasons, ['public_network', 'non_geolocatable_network'])
  const [cgnat] = views([session('a', { client_ip: '100.64.3.3' })], 'a')
  t.same(cgnat?.risk_reasons, ['non_geolocatable_network'])
  t.equal(cgnat?.network_label, 'private')
  t.equal(cgnat?.location_label, 'shared_address_space')
})

t.test('multi_public_ip_family at the threshold, only on public sessions', async (t) => {
  const fam = [
    session('a', { client_ip: '8.8.8.8', device_fingerprint: 'd', last_seen_at: ago(1) }),
    session('b', { client_ip: '1.1.1.1', device_fingerprint: 'd', last_seen_at: ago(2) }),
    session('c', { client_ip: '10.0.0.9', device_fingerprint: 'd', last_seen_at: ago(3) }),
  ]
  const vs = views(fam, 'a')
  t.equal(vs[0]?.family_public_ip_count, 2)
  t.ok(vs[0]?.risk_reasons.includes('multi_public_ip_family'))
  t.ok(vs[1]?.risk_reasons.includes('multi_public_ip_family'))
  t.notOk(vs[2]?.risk_reasons.includes('multi_public_ip_family'), 'private session not flagged')
  const one = views([fam[0] as RiskSessionInput, { ...(fam[1] as RiskSessionInput), client_ip: '8.8.8.8' }], 'a')
  t.equal(one[0]?.family_public_ip_count, 1)
  t.notOk(one[0]?.risk_reasons.includes('multi_public_ip_family'), 'one distinct public IP is below threshold 2')
})

t.test('many_active_sessions at many_sessions_threshold (3), revoked ones not counted', async (t) => {
  const two = [session('a', { device_fingerprint: 'd' }), session('b', { device_fingerprint: 'd' })]
  t.notOk(views(two, 'a')[0]?.risk_reasons.includes('many_active_sessions'))
  const twoPlusRevoked = [...two, session('c', { status: 'revoked', device_fingerprint: 'd' })]
  t.notOk(views(twoPlusRevoked, 'a')[0]?.risk_reasons.includes('many_active_sessions'))
  const three = [...two, session('c', { device_fingerprint: 'd' })]
  const v = views(three, 'a')[0]
  t.equal(v?.active_session_count, 3)
  t.ok(v?.risk_reasons.includes('many_active_sessions'))
})

t.test('ip_drift and device_drift against the reference; rapid inside the window only', async (t) => {
  const ref = session('ref', { client_ip: '10.0.0.1', device_fingerprint: 'd1', last_seen_at: ago(1) })
  const near = session('near', { client_ip: '10.0.0.2', device_fingerprint: 'd2', last_seen_at: ago(60) })
  const far = session('far', {
    client_ip: '10.0.0.3',
    device_fingerprint: 'd3',
    last_seen_at: ago(13 * 60),
  })
  const vs = views([ref, near, far], 'ref')
  const [r, n, f] = vs
  t.equal(r?.reference_session_id, 'ref')
  t.same([r?.ip_drift, r?.device_drift, r?.rapid_ip_change, r?.rapid_device_change], [false, false, false, false])
  t.same([n?.ip_drift, n?.device_drift, n?.rapid_ip_change, n?.rapid_device_change], [true, true, true, true])
  t.same(n?.risk_reasons, [
    'not_current_session',
    'many_active_sessions',
    'ip_drift',
    'device_drift',
    'rapid_ip_change',
    'rapid_device_change',
  ])
  t.same([f?.ip_drift, f?.device_drift, f?.rapid_ip_change, f?.rapid_device_change], [true, true, false, false])
  t.equal(f?.family_device_count, 3)
})

t.test('rapid_change_window boundary is inclusive', async (t) => {
  const ref = session('ref', { device_fingerprint: 'd', last_seen_at: ago(0) })
  const edge = session('edge', { device_fingerprint: 'd', client_ip: '10.9.9.9', last_seen_at: ago(12 * 60) })
  const v = views([ref, edge], 'ref')[1]
  t.equal(v?.rapid_ip_change, true)
  const past = session('past', { device_fingerprint: 'd', client_ip: '10.9.9.9', last_seen_at: ago(12 * 60 + 1) })
  t.equal(views([ref, past], 'ref')[1]?.rapid_ip_change, false)
})

t.test('rapid_refresh_activity needs a hot refresh and a hot family at the threshold', async (t) => {
  const a = session('a', { device_fingerprint: 'd', last_refresh_at: ago(2), last_seen_at: ago(2) })
  const b = session('b', { device_fingerprint: 'd', last_refresh_at: ago(20), last_seen_at: ago(3) })
  let vs = views([a, b], 'a')
  t.equal(vs[0]?.family_hot_refresh_count, 1)
  t.equal(vs[0]?.rapid_refresh_activity, false)
  t.equal(vs[0]?.refresh_recency, 'hot')
  t.equal(vs[1]?.refresh_recency, 'recent')
  vs = views([a, { ...b, last_refresh_at: ago(9) }], 'a')
  t.equal(vs[0]?.family_hot_refresh_count, 2)
  t.equal(vs[0]?.rapid_refresh_activity, true)
  t.equal(vs[1]?.rapid_refresh_activity, true)
  t.ok(vs[0]?.risk_reasons.includes('rapid_refresh_activity'))
})

t.test('stale_activity past the stale window, and missing_device_fingerprint', async (t) => {
  const old = session('old', { last_seen_at: ago(14 * 24 * 60 + 1), device_fingerprint: '' })
  const v = views([old], 'old')[0]
  t.same(v?.risk_reasons, ['stale_activity', 'missing_device_fingerprint'])
  t.equal(v?.risk_level, 'medium')
  t.equal(v?.family_device_count, 0)
  const edge = views([session('e', { last_seen_at: ago(14 * 24 * 60) })], 'e')[0]
  t.notOk(edge?.risk_reasons.includes('stale_activity'), 'exactly at the window is not stale')
})

t.test('every reason, in the documented order, sums its points', async (t) => {
  const ref = session('ref', {
    client_ip: '8.8.8.8',
    device_fingerprint: 'd1',
    last_seen_at: ago(1),
    last_refresh_at: ago(1),
  })
  const other = session('o2', { client_ip: '1.1.1.1', device_fingerprint: 'd2', last_seen_at: ago(2) })
  const bad = session('bad', {
    status: 'revoked',
    client_ip: '203.0.113.7',
    device_fingerprint: '',
    last_seen_at: ago(15 * 24 * 60),
    last_refresh_at: ago(3),
  })
  // a fingerprint-less session cannot drift by device; a second one covers device drift
  const drifter = session('drift', {
    client_ip: '192.0.2.1',
    device_fingerprint: 'dx',
    last_seen_at: ago(5),
    last_refresh_at: ago(4),
  })
  const vs = views([ref, other, drifter, bad], 'ref')
  const d = vs.find((v) => v.session_id === 'drift')
  t.same(d?.risk_reasons, [
    'not_current_session',
    'public_network',
    'non_geolocatable_network',
    'multi_public_ip_family',
    'many_active_sessions',
    'ip_drift',
    'device_drift',
    'rapid_ip_change',
    'rapid_device_change',
    'rapid_refresh_activity',
  ])
  t.equal(d?.risk_score, 10)
  t.equal(d?.risk_level, 'high')
  const b = vs.find((v) => v.session_id === 'bad')
  t.same(b?.risk_reasons, [
    'revoked_session',
    'not_current_session',
    'public_network',
    'non_geolocatable_network',
    'multi_public_ip_family',
    'many_active_sessions',
    'ip_drift',
    'rapid_refresh_activity',
    'stale_activity',
    'missing_device_fingerprint',
  ])
  t.equal(b?.risk_score, 3 + 9)
  const order = RISK_REASONS.map(([r]) => r)
  for (const v of vs) {
    const idx = v.risk_reasons.map((r) => order.indexOf(r as (typeof order)[number]))
    t.same(
      idx,
      [...idx].sort((x, y) => x - y),
      `${v.session_id} reasons in order`,
    )
  }
})

t.test('risk_level boundaries follow medium_risk_score and high_risk_score', async (t) => {
  t.equal(riskLevel(0, P), 'low')
  t.equal(riskLevel(1, P), 'low')
  t.equal(riskLevel(2, P), 'medium')
  t.equal(riskLevel(3, P), 'medium')
  t.equal(riskLevel(4, P), 'high')
  t.equal(riskLevel(9, P), 'high')
  const strict = { ...P, medium_risk_score: 1, high_risk_score: 2 }
  t.equal(riskLevel(1, strict), 'medium')
  t.equal(riskLevel(2, strict), 'high')
  t.equal(views([session('a')], undefined, strict)[0]?.risk_level, 'medium', 'policy reaches the view')
})

t.test('refresh_recency windows', async (t) => {
  t.equal(refreshRecency(null, NOW, P), 'unknown')
  t.equal(refreshRecency('garbage', NOW, P), 'unknown')
  t.equal(refreshRecency(ago(10), NOW, P), 'hot')
  t.equal(refreshRecency(ago(11), NOW, P), 'recent')
  t.equal(refreshRecency(ago(30), NOW, P), 'recent')
  t.equal(refreshRecency(ago(31), NOW, P), 'today')
  t.equal(refreshRecency(ago(24 * 60), NOW, P), 'today')
  t.equal(refreshRecency(ago(24 * 60 + 1), NOW, P), 'stale')
  t.equal(refreshRecency(ago(45), NOW, { ...P, recent_refresh_window_minutes: 60 }), 'recent')
})

t.test('reference: most recently seen active session, ties broken deterministically', async (t) => {
  t.equal(referenceSession([]), undefined)
  const a = session('a', { last_seen_at: ago(5) })
  const b = session('b', { last_seen_at: ago(5), created_at: ago(10) })
  t.equal(referenceSession([a, b])?.id, 'b', 'newer creation wins a tie')
  t.equal(referenceSession([b, a])?.id, 'b')
  const revoked = session('r', { status: 'revoked', last_seen_at: ago(1) })
  t.equal(referenceSession([a, revoked])?.id, 'a')
  t.equal(referenceSession([revoked])?.id, 'r', 'no active session: the most recent of all')
})

// queries/session-views resolves the labels through the adapter first, then computes the views
const viewsThroughAdapter = async (sessions: RiskSessionInput[], opts: { currentSessionId?: string } = {}) =>
  computeSessionViews(
    sessions,
    await lookupAll(
      heuristicIpIntel,
      sessions.map((s) => s.client_ip),
    ),
    { now: NOW, policy: P, ...opts },
  )

t.test('labels resolved through the adapter, then the views computed', async (t) => {
  const vs = await viewsThroughAdapter([session('a', { client_ip: '::ffff:8.8.8.8' })], { currentSessionId: 'a' })
  t.equal(vs[0]?.network_label, 'public')
  t.equal(vs[0]?.location_label, 'public_unknown')
  const unknown = await viewsThroughAdapter([session('a', { client_ip: '' })])
  t.equal(unknown[0]?.network_label, 'unknown')
})
