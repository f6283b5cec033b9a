import type { ConversationsClient, ServiceClient, ServiceContext } from '@switchboard/platform'
import type { RealtimeConfig } from './config.ts'
import type { RealtimeDatabase } from './db/database.ts'
import type { Hub } from './hub/hub.ts'

/** realtime-voice's own parts of the context, made once per app by the descriptor's `context`. */
export interface RealtimeExtras {
  /** conversations' API (the platform's typed client): the only writer of sessions and messages */
  conversations: ConversationsClient
  /** identity's internal API: which tenants and workspaces take widget visitors */
  identity: ServiceClient
  /** config-governance's internal API: where each scope's widget may be embedded (absent when not configured) */
  configGovernance: ServiceClient | undefined
  /** this replica's sockets, and the fan-out that feeds them */
  hub: Hub
}

/** What the realtime-voice routes, commands and workers are handed. */
export type RealtimeService = ServiceContext<RealtimeConfig, RealtimeDatabase> & RealtimeExtras
