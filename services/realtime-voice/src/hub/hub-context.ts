import type { EventBus } from '@switchboard/events'
import type { Cache, Logger, ServiceContext } from '@switchboard/platform'
import type { RealtimeConfig } from '../config.ts'
import type { ConnectionStore } from '../webrtc/connections.ts'
import type { EmbedPolicy } from './embed-policy.ts'
import type { Registry } from './registry.ts'
import type { UpstreamApi } from './upstream.ts'

/** What the hub's parts share: one per app (nothing of it is module state). */
export interface HubContext {
  config: RealtimeConfig
  log: Logger
  cache: Cache
  bus: EventBus
  /** the platform's checked, non-outbox publication: the hub's signals (signals.ts) */
  publish: ServiceContext['publish']
  api: UpstreamApi
  registry: Registry
  connections: ConnectionStore
  /** the scopes' `widget.allowed_origins` (config-governance), for visitors */
  embed: EmbedPolicy
  /** this replica's id in the cluster's stats (`hub:replica:<id>`) */
  replica: string
}
