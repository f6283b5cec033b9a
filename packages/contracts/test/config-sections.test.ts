// The session-risk shape is one table with two uses' limits (config-sections.ts): identity's system config (its
// defaults, a score may be 0, no ceiling) and a scope's stored override (at least 1, bounded, unknown keys refused).
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import {
  ConfigDocument,
  DEFAULT_SESSION_RISK_POLICY,
  SESSION_RISK_KEYS,
  SessionRiskPolicy,
  SessionRiskSection,
} from '../src/index.ts'

t.test('the code defaults are the system schema defaults, key for key', async (t) => {
  t.same(Value.Default(SessionRiskPolicy, {}), DEFAULT_SESSION_RISK_POLICY)
  t.same(Object.keys(DEFAULT_SESSION_RISK_POLICY), Object.keys(SESSION_RISK_KEYS))
  t.ok(Object.isFrozen(DEFAULT_SESSION_RISK_POLICY))
  t.ok(Value.Check(SessionRiskPolicy, DEFAULT_SESSION_RISK_POLICY), 'the defaults pass their own schema')
})

t.test('system and override limits differ where they are meant to', async (t) => {
  const zeroScore = { ...DEFAULT_SESSION_RISK_POLICY, high_risk_score: 0 }
  t.ok(Value.Check(SessionRiskPolicy, zeroScore), 'the operator may set a score of 0')
  t.notOk(Value.Check(SessionRiskSection, zeroScore), 'a scope may not')
  const huge = { ...DEFAULT_SESSION_RISK_POLICY, stale_activity_window_days: 10_000 }
  t.ok(Value.Check(SessionRiskPolicy, huge), 'no ceiling for the system value')
  t.notOk(Value.Check(SessionRiskSection, huge), 'a scope stays within 365 days')
  t.notOk(Value.Check(SessionRiskPolicy, { ...DEFAULT_SESSION_RISK_POLICY, hot_refresh_window_minutes: 0 }))
  t.notOk(Value.Check(SessionRiskSection, { ...DEFAULT_SESSION_RISK_POLICY, extra: 1 }), 'unknown key refused')
})

t.test('a document holds only what a scope overrides', async (t) => {
  t.ok(Value.Check(ConfigDocument, { session_risk: { high_risk_score: 5 }, llm: { model: 'm' } }))
  t.ok(Value.Check(ConfigDocument, {}))
  t.notOk(Value.Check(ConfigDocument, { session_risk: { high_risk_score: 21 } }), 'bounded')
  t.notOk(Value.Check(ConfigDocument, { sessions_risk: {} }), 'a misspelt section refused')
})
