import { AiEvents, HUB_STREAM, RealtimeSignalEvents, UNITS } from '@switchboard/contracts'
import { conversationsClient, createSecretBox, createServiceClient, defineService } from '@switchboard/platform'
import { createBreaker } from './breaker/breaker.ts'
import { type AiConfig, loadConfig } from './config.ts'
import { configOverrides } from './consumers/config-overrides.consumer.ts'
import { conversationReplies } from './consumers/conversation-replies.consumer.ts'
import { AiErasureEvents, erasureConsumer } from './consumers/erasure.consumer.ts'
import { AiTenantErasureEvents, tenantErasureConsumer } from './consumers/erasure-tenant.consumer.ts'
import { ticketIndex } from './consumers/ticket-index.consumer.ts'
import type { AiParts } from './context.ts'
import type { AiDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { createLlmClient } from './llm/openai.ts'
import { createAiMetrics } from './metrics/ai.metrics.ts'
import { createUsageBook } from './metrics/usage.ts'
import { createCompatibilityProvider } from './providers/compatibility.ts'
import { createLocalProvider } from './providers/local.ts'
import { createPrimaryProvider } from './providers/primary.ts'
import { createProviderRegistry } from './providers/registry.ts'
import { aiRoutes } from './routes/ai.routes.ts'
import { assistRoutes } from './routes/assist.routes.ts'
import { effectiveConfigRoutes } from './routes/effective-config.routes.ts'
import { helpCentreRoutes } from './routes/help-centre.routes.ts'
import { knowledgeDocRoutes } from './routes/knowledge-docs.routes.ts'
import { publicKbRoutes } from './routes/public-kb.routes.ts'
import { createScopedRuntimes } from './runtime/scoped-runtime.ts'

/**
 * The ai-orchestrator service (docs/architecture.md §1): AI answers from knowledge providers (primary, compatibility,
 * the local knowledge base last) with an OpenAI-compatible LLM, circuit breakers shared by every replica, knowledge
 * docs and the public knowledge base, assist suggestions for agents, and AI replies in conversations.
 */
export const aiOrchestrator = defineService<AiConfig, AiDatabase, AiParts>({
  unit: UNITS['ai-orchestrator'],
  loadConfig,
  migrations,
  // RealtimeSignalEvents: answers being written are streamed to conversations' sockets as the hub's signals, on the
  // hub's stream (consumers/answer-stream.ts)
  events: [AiEvents, RealtimeSignalEvents, AiErasureEvents, AiTenantErasureEvents],
  streams: [HUB_STREAM],
  context(base) {
    const { config, cache } = base
    const local = createLocalProvider(base)
    const breakerError = (err: unknown) => base.log.warn({ err }, 'breaker state unreachable: calls let through')
    const runtimes = createScopedRuntimes({
      db: base.db,
      box: createSecretBox(config.config_encryption_key, config.previous_config_encryption_keys),
      config,
      log: base.log,
      make: (settings, key, names, dispatchers) => ({
        key,
        settings,
        providers: createProviderRegistry({
          cache,
          local,
          external: {
            primary: createPrimaryProvider(settings.primary, dispatchers.primary),
            compatibility: createCompatibilityProvider(settings.compatibility, dispatchers.compatibility),
          },
          configured: { primary: settings.primary.enabled, compatibility: settings.compatibility.enabled },
          preferred: settings.preferred,
        }),
        llm: createLlmClient(settings.llm, dispatchers.llm),
        breakers: {
          primary: createBreaker(cache, names.primary, config.breaker, Date.now, breakerError),
          compatibility: createBreaker(cache, names.compatibility, config.breaker, Date.now, breakerError),
          llm: createBreaker(cache, names.llm, config.breaker, Date.now, breakerError),
        },
      }),
    })
    const aiMetrics = createAiMetrics(base.metrics.registry, () =>
      Promise.all(runtimes.known().flatMap((r) => Object.values(r.breakers).map((b) => b.snapshot()))),
    )
    const usage = createUsageBook(cache, (err) => base.log.warn({ err }, 'AI usage count not recorded'))
    const conversations =
      config.conversations_urls.length > 0
        ? conversationsClient(
            createServiceClient({
              service: 'conversations',
              urls: config.conversations_urls,
              internalSecret: config.internal_secret,
              self: 'ai-orchestrator',
              timeoutMs: 10_000,
            }),
          )
        : undefined
    if (!conversations) base.log.warn('UPSTREAM_CONVERSATIONS is not set: the AI does not answer in conversations')
    return { runtimes, aiMetrics, usage, conversations }
  },
  routes: {
    protected: [aiRoutes, knowledgeDocRoutes, assistRoutes, effectiveConfigRoutes],
    public: [publicKbRoutes, helpCentreRoutes],
  },
  consumers: [configOverrides, conversationReplies, ticketIndex, erasureConsumer, tenantErasureConsumer],
  shutdown: async (svc) => {
    await svc.usage.close()
    await svc.conversations?.close()
  },
})

/** An un-listened ai-orchestrator app: runners listen, tests `inject()`. */
export const build = aiOrchestrator.build
