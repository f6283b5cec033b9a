import type { ConversationsClient, ServiceContext } from '@switchboard/platform'
import type { AiConfig } from './config.ts'
import type { AiDatabase } from './db/database.ts'
import type { AiMetrics } from './metrics/ai.metrics.ts'
import type { UsageBook } from './metrics/usage.ts'
import type { ScopedRuntimes } from './runtime/scoped-runtime.ts'

/** ai-orchestrator's own parts of the context, made once per app (`context` of the descriptor). */
export interface AiParts {
  /**
   * the runtime (providers, LLM, breakers) of each scope: the system's settings with the scope's stored overrides;
   * `runtimes.system` is the system's own
   */
  runtimes: ScopedRuntimes
  aiMetrics: AiMetrics
  /** the counts of GET /api/v1/ai/metrics */
  usage: UsageBook
  /**
   * conversations' API (the platform's typed client: AI replies, hand-overs); absent without UPSTREAM_CONVERSATIONS,
   * and then the AI stays quiet
   */
  conversations: ConversationsClient | undefined
}

/** What ai-orchestrator's routes, commands and consumers are handed. */
export type AiService = ServiceContext<AiConfig, AiDatabase> & AiParts
