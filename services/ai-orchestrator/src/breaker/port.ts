/**
 * A circuit breaker per dependency (each knowledge provider, the LLM), shared by every replica: its state lives in
 * Redis (one atomic script per transition), in memory in the embedded default. Closed → open after `max_failures`
 * consecutive failures; open → half-open once `reset_timeout_ms` passed, letting `half_open_max_requests` trial calls
 * through; a trial's success closes it, a trial's failure opens it again.
 */
export type BreakerState = 'closed' | 'open' | 'half_open'

export interface BreakerSnapshot {
  name: string
  state: BreakerState
  failure_count: number
  /** when it last opened (ms since epoch), null when closed */
  opened_at: number | null
  half_open_requests: number
  /** the shared state could not be read: the breaker lets every call through meanwhile (fails open) */
  error?: string
}

export interface Permit {
  allowed: boolean
  /** a half-open trial: its outcome decides the state */
  trial: boolean
  state: BreakerState
}

export interface Breaker {
  readonly name: string
  /** may a call go through now? (counts a half-open trial) */
  acquire(): Promise<Permit>
  success(permit: Permit): Promise<void>
  failure(permit: Permit): Promise<void>
  snapshot(): Promise<BreakerSnapshot>
  /** back to closed, counters 0, on every replica */
  reset(): Promise<void>
}
