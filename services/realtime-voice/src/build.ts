import { HUB_STREAM, RealtimeSignalEvents, UNITS, VoiceEvents } from '@switchboard/contracts'
import { conversationsClient, createServiceClient, defineService } from '@switchboard/platform'
import { loadConfig, type RealtimeConfig } from './config.ts'
import { erasureConsumer, VoiceErasureEvents } from './consumers/erasure.consumer.ts'
import { tenantErasureConsumer, VoiceTenantErasureEvents } from './consumers/erasure-tenant.consumer.ts'
import type { RealtimeExtras } from './context.ts'
import type { RealtimeDatabase } from './db/database.ts'
import { migrations } from './db/migrations/index.ts'
import { createHub } from './hub/hub.ts'
import { customerExportRoutes } from './routes/customer-export.routes.ts'
import { statsRoutes } from './routes/stats.routes.ts'
import { voiceRoutes } from './routes/voice.routes.ts'
import { webrtcRoutes } from './routes/webrtc.routes.ts'
import { socketRoutes } from './routes/ws.routes.ts'

/**
 * realtime-voice: the WebSocket hub of widgets and agent consoles (fan-out of conversations' events across
 * replicas), WebRTC signalling and connection state, and voice calls (docs/architecture.md §5). It owns sockets,
 * not conversations: what a client says becomes a call to conversations; what clients see comes from its events.
 */
export const realtimeVoice = defineService<RealtimeConfig, RealtimeDatabase, RealtimeExtras>({
  unit: UNITS['realtime-voice'],
  loadConfig,
  migrations,
  // the hub's signals are published straight to the bus (hub/signals.ts), on its own short-lived stream
  events: [VoiceEvents, RealtimeSignalEvents, VoiceErasureEvents, VoiceTenantErasureEvents],
  streams: [HUB_STREAM],
  context: (svc) => {
    const conversations = conversationsClient(
      createServiceClient({
        service: 'conversations',
        urls: svc.config.conversations_urls,
        internalSecret: svc.config.internal_secret,
        self: 'realtime-voice',
      }),
    )
    const identity = createServiceClient({
      service: 'identity',
      urls: svc.config.identity_urls,
      internalSecret: svc.config.internal_secret,
      self: 'realtime-voice',
    })
    const configGovernance =
      svc.config.config_governance_urls.length > 0
        ? createServiceClient({
            service: 'config-governance',
            urls: svc.config.config_governance_urls,
            internalSecret: svc.config.internal_secret,
            self: 'realtime-voice',
          })
        : undefined
    if (!configGovernance) {
      svc.log.warn('UPSTREAM_CONFIG_GOVERNANCE is not set: widget visitors are not checked against allowed origins')
    }
    return {
      conversations,
      identity,
      configGovernance,
      hub: createHub(svc, { conversations, identity, configGovernance }),
    }
  },
  routes: { protected: [statsRoutes, webrtcRoutes, voiceRoutes, customerExportRoutes], optional: [socketRoutes] },
  consumers: [erasureConsumer, tenantErasureConsumer],
  startup: (svc) => svc.hub.start(),
  shutdown: async (svc) => {
    await svc.hub.close()
    await svc.conversations.close()
    await svc.identity.close()
    await svc.configGovernance?.close()
  },
})

/** An un-listened realtime-voice app: runners listen, tests `inject()`. */
export const build = realtimeVoice.build
