import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { BreakerSnapshot } from '../breaker/port.ts'

/**
 * The AI metrics on the service's `/metrics`, named so that the spec's alerts can be written on them (AI failure rate
 * above 20 % for 5 min: `ai_requests_total{outcome="failure"}`; AI p95 above 10 s for 10 min:
 * `ai_request_duration_seconds`).
 */
export interface AiMetrics {
  /** calls to a dependency (primary, compatibility, local, llm) by outcome: success | failure | skipped */
  requests: Counter<'provider' | 'outcome'>
  /** duration of each dependency call, and of a whole query (`provider="query"`) */
  duration: Histogram<'provider'>
  /** answers by strategy (primary, compatibility, fallback, transfer) */
  answers: Counter<'strategy'>
  /** LLM tokens by kind (prompt, completion) */
  tokens: Counter<'kind'>
  /** 0 closed, 1 half-open, 2 open; read from the shared breaker state when scraped */
  breakerState: Gauge<'breaker'>
}

const STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const

export function createAiMetrics(registry: Registry, breakers: () => Promise<BreakerSnapshot[]>): AiMetrics {
  return {
    requests: new Counter({
      name: 'ai_requests_total',
      help: 'AI dependency calls (knowledge providers, LLM) by outcome',
      labelNames: ['provider', 'outcome'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'ai_request_duration_seconds',
      help: 'duration of AI dependency calls and of whole queries (provider="query")',
      labelNames: ['provider'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    answers: new Counter({
      name: 'ai_answers_total',
      help: 'AI answers by strategy',
      labelNames: ['strategy'] as const,
      registers: [registry],
    }),
    tokens: new Counter({
      name: 'ai_llm_tokens_total',
      help: 'LLM tokens used, by kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    breakerState: new Gauge({
      name: 'ai_circuit_breaker_state',
      help: 'circuit breaker state per dependency: 0 closed, 1 half-open, 2 open (shared by every replica)',
      labelNames: ['breaker'] as const,
      registers: [registry],
      async collect() {
        try {
          for (const b of await breakers()) this.set({ breaker: b.name }, STATE_VALUE[b.state])
        } catch {
          // the last values stay; the breaker store answers again on the next scrape
        }
      },
    }),
  }
}
