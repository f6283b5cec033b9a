import type { BreakerSettings } from '../config.ts'
import type { BreakerState, Permit } from './port.ts'

/**
 * The breaker's rules as pure steps over its stored state. The memory store runs them; the Redis scripts
 * (redis-store.ts) are the same steps in Lua, so both stores behave alike (the tests run both).
 */
export interface StoredState {
  state: BreakerState
  /** consecutive failures */
  failures: number
  opened_at: number | null
  /** trial calls let through in this half-open round */
  trials: number
  /** when this half-open round began */
  half_opened_at: number | null
}

export const CLOSED: Readonly<StoredState> = Object.freeze({
  state: 'closed',
  failures: 0,
  opened_at: null,
  trials: 0,
  half_opened_at: null,
})

export type Limits = Pick<BreakerSettings, 'max_failures' | 'reset_timeout_ms' | 'half_open_max_requests'>

const ALLOWED: Permit = Object.freeze({ allowed: true, trial: false, state: 'closed' })
const trial = (): Permit => ({ allowed: true, trial: true, state: 'half_open' })

/**
 * May a call go through? Open turns half-open once the cool-down passed (that call is the first trial). A half-open
 * round whose trials never reported back (a replica that died mid-call) is started again after another cool-down,
 * so the breaker cannot stay half-open for good.
 */
export function acquireStep(s: StoredState, now: number, l: Limits): [StoredState, Permit] {
  if (s.state === 'closed') return [s, ALLOWED]
  if (s.state === 'open') {
    if (now - (s.opened_at ?? 0) < l.reset_timeout_ms) return [s, { allowed: false, trial: false, state: 'open' }]
    return [{ ...s, state: 'half_open', trials: 1, half_opened_at: now }, trial()]
  }
  if (s.trials < l.half_open_max_requests) return [{ ...s, trials: s.trials + 1 }, trial()]
  if (now - (s.half_opened_at ?? 0) >= l.reset_timeout_ms) return [{ ...s, trials: 1, half_opened_at: now }, trial()]
  return [s, { allowed: false, trial: false, state: 'half_open' }]
}

/** A success closes a half-open breaker when it was a trial, and clears the failures of a closed one. */
export function successStep(s: StoredState, isTrial: boolean): StoredState {
  if (s.state === 'closed' || (s.state === 'half_open' && isTrial)) return CLOSED
  return s
}

/**
 * A failure counts in a closed breaker and opens it at `max_failures`; a trial's failure opens a half-open one
 * again. The outcome of a call let through before the breaker opened changes nothing once it is open or half-open.
 */
export function failureStep(s: StoredState, isTrial: boolean, now: number, l: Limits): StoredState {
  const failures = s.failures + 1
  if (s.state === 'closed') {
    if (failures < l.max_failures) return { ...s, failures }
    return { state: 'open', failures, opened_at: now, trials: 0, half_opened_at: null }
  }
  if (s.state === 'half_open' && isTrial)
    return { state: 'open', failures, opened_at: now, trials: 0, half_opened_at: null }
  return s
}
