import type { ServiceClient, ServiceContext } from '@switchboard/platform'
import type { BlobStore } from './blob/blob-store.ts'
import type { QueueKicks } from './commands/queue-kicks.ts'
import type { ConversationsConfig } from './config.ts'
import type { ConversationsDatabase } from './db/database.ts'
import type { QueueMetrics } from './metrics/queue.metrics.ts'

/** conversations' own parts of the context, made once per app by the descriptor's `context`. */
export interface ConversationsExtras {
  blobs: BlobStore
  /** queue passes kicked by changes, closed with the app (the descriptor's `shutdown`) */
  queueKicks: QueueKicks
  /** the queue's length on `/metrics`, set by the timer pass (workers/queue.worker.ts) */
  queueMetrics: QueueMetrics
  /** tickets' internal API (a widget visitor's rating of a conversation); absent when UPSTREAM_TICKETS is not set */
  tickets: ServiceClient | undefined
}

/** What the conversations routes, commands, consumers and workers are handed. */
export type ConversationsService = ServiceContext<ConversationsConfig, ConversationsDatabase> & ConversationsExtras
