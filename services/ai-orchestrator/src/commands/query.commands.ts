import { AiEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso, type Scope } from '@switchboard/platform'
import type { Breaker, Permit } from '../breaker/port.ts'
import type { AiService } from '../context.ts'
import {
  asksForHuman,
  clip,
  confidenceOf,
  HANDOFF_REPLY,
  NO_ANSWER_REPLY,
  NO_PASSAGE_CONFIDENCE,
  passageAnswer,
  promptFor,
} from '../domain/answering.ts'
import type { CompleteOptions } from '../llm/port.ts'
import type { KnowledgeProvider, Passage, ProviderId } from '../providers/port.ts'
import type { AiRuntime } from '../runtime/scoped-runtime.ts'

export interface QueryInput {
  query: string
  session_id?: string | null | undefined
}

/** An answer (POST /api/v1/ai/query; an AI message in a conversation). */
export interface AiAnswer {
  query_id: string
  content: string
  confidence: number
  /** where the passages came from (primary | compatibility | local), `system` for a hand-over, `none` */
  source: ProviderId | 'system' | 'none'
  /** primary | compatibility: that provider's passages through the LLM; fallback: anything else; transfer */
  strategy: 'primary' | 'compatibility' | 'fallback' | 'transfer'
  sources: Passage[]
  duration_ms: number
  llm_used: boolean
  tokens_used: number
}

/** Passages asked of a provider per query. */
const PASSAGES = 5

/**
 * Answers a question (spec: the AI query orchestrator). A request for a person is a hand-over. Otherwise the
 * knowledge providers are asked in the spec's order — the preferred external one, the other, the local knowledge
 * base — skipping one that is switched off or whose breaker is open, and moving on when one fails or finds nothing:
 * a query never fails because a provider did. The passages go to the LLM (its own breaker) to compose a cited
 * answer; without an LLM, or when it fails, the best passage is the answer (strategy `fallback`). The providers, the
 * LLM and their breakers are the caller's scope's (its stored overrides over the system's settings). Every answer is
 * announced (`ai.query.answered`) for statistics.
 */
export async function answerQuery(
  svc: AiService,
  caller: Caller,
  input: QueryInput,
  opts: CompleteOptions = {},
): Promise<AiAnswer> {
  const started = performance.now()
  svc.usage.count('query')
  const base = { query_id: newId(), sources: [] as Passage[], llm_used: false, tokens_used: 0 }
  let answer: Omit<AiAnswer, 'duration_ms'>
  if (asksForHuman(input.query, svc.config.handoff_words)) {
    answer = { ...base, content: HANDOFF_REPLY, confidence: 1, source: 'system', strategy: 'transfer' }
  } else {
    const runtime = await svc.runtimes.forScope(caller.scope)
    const found = await retrieve(svc, runtime, caller.scope, input.query)
    answer = { ...base, ...(await compose(svc, runtime, input.query, found, opts)) }
  }
  const duration_ms = Math.round((performance.now() - started) * 10) / 10
  svc.usage.duration(duration_ms)
  svc.usage.count(
    answer.strategy === 'primary' || answer.strategy === 'compatibility'
      ? `answered_${answer.strategy}`
      : answer.strategy,
  )
  svc.aiMetrics.answers.inc({ strategy: answer.strategy })
  svc.aiMetrics.duration.observe({ provider: 'query' }, duration_ms / 1000)
  // a fact, not a change of this service's state: batched with the other answers of this moment
  await svc.emitSoon(caller, AiEvents.queryAnswered, {
    query_id: answer.query_id,
    provider: answer.source === 'system' ? 'none' : answer.source,
    strategy: answer.strategy,
    duration_ms,
    session_id: input.session_id ?? null,
    llm_used: answer.llm_used,
    answered_at: nowIso(),
  })
  return { ...answer, duration_ms }
}

interface Found {
  provider: ProviderId | null
  passages: Passage[]
}

async function retrieve(svc: AiService, runtime: AiRuntime, scope: Scope, query: string): Promise<Found> {
  const { providers, breakers } = runtime
  for (const provider of await providers.externalInOrder()) {
    const id = provider.id as 'primary' | 'compatibility'
    const result = await guarded(svc, id, breakers[id], () => provider.retrieve({ query, limit: PASSAGES, scope }))
    if (result.ok && result.value.length > 0) return { provider: id, passages: result.value }
  }
  const local = await timed(svc, providers.local, () => providers.local.retrieve({ query, limit: PASSAGES, scope }))
  return { provider: local.length > 0 ? 'local' : null, passages: local }
}

async function compose(
  svc: AiService,
  { llm, breakers }: AiRuntime,
  query: string,
  found: Found,
  opts: CompleteOptions,
): Promise<Omit<AiAnswer, 'query_id' | 'duration_ms'>> {
  const { passages, provider } = found
  const source = provider ?? 'none'
  const external = provider === 'primary' || provider === 'compatibility'
  if (passages.length > 0 && llm.configured) {
    // an answer too unsure to be given (a hand-over follows) is not shown while it is written either
    const stream = confidenceOf(passages) >= svc.config.min_confidence ? opts : {}
    const result = await guarded(svc, 'llm', breakers.llm, () => llm.complete(promptFor(query, passages), stream))
    if (result.ok) {
      const { content, tokens } = result.value
      svc.aiMetrics.tokens.inc({ kind: 'prompt' }, tokens.prompt)
      svc.aiMetrics.tokens.inc({ kind: 'completion' }, tokens.completion)
      return {
        content: clip(content),
        confidence: confidenceOf(passages),
        source,
        strategy: external ? (provider as 'primary' | 'compatibility') : 'fallback',
        sources: passages,
        llm_used: true,
        tokens_used: tokens.total,
      }
    }
  }
  const content = passages.length > 0 ? passageAnswer(passages) : NO_ANSWER_REPLY
  return {
    content,
    confidence: passages.length > 0 ? confidenceOf(passages) : NO_PASSAGE_CONFIDENCE,
    source,
    strategy: 'fallback',
    sources: passages,
    llm_used: false,
    tokens_used: 0,
  }
}

type Guarded<T> = { ok: true; value: T } | { ok: false; reason: 'open' | 'failed' }

/** A dependency call behind its breaker, measured; a failure is recorded, never thrown. */
async function guarded<T>(
  svc: AiService,
  name: 'primary' | 'compatibility' | 'llm',
  breaker: Breaker,
  call: () => Promise<T>,
): Promise<Guarded<T>> {
  const permit: Permit = await breaker.acquire()
  if (!permit.allowed) {
    svc.usage.count(`skipped_${name}`)
    svc.aiMetrics.requests.inc({ provider: name, outcome: 'skipped' })
    return { ok: false, reason: 'open' }
  }
  const started = performance.now()
  try {
    const value = await call()
    svc.aiMetrics.requests.inc({ provider: name, outcome: 'success' })
    await breaker.success(permit)
    return { ok: true, value }
  } catch (err) {
    svc.usage.count(`failure_${name}`)
    svc.aiMetrics.requests.inc({ provider: name, outcome: 'failure' })
    svc.log.warn({ err, dependency: name }, 'AI dependency failed; falling back')
    await breaker.failure(permit)
    return { ok: false, reason: 'failed' }
  } finally {
    svc.aiMetrics.duration.observe({ provider: name }, (performance.now() - started) / 1000)
  }
}

/** The local knowledge base: no breaker (it is this service's own database), measured like the others. */
async function timed(svc: AiService, provider: KnowledgeProvider, call: () => Promise<Passage[]>) {
  const started = performance.now()
  try {
    const passages = await call()
    svc.aiMetrics.requests.inc({ provider: provider.id, outcome: 'success' })
    return passages
  } catch (err) {
    svc.aiMetrics.requests.inc({ provider: provider.id, outcome: 'failure' })
    svc.log.error({ err }, 'local knowledge base search failed')
    return []
  } finally {
    svc.aiMetrics.duration.observe({ provider: provider.id }, (performance.now() - started) / 1000)
  }
}
