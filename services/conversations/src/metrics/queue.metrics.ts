import { Gauge, type Registry } from 'prom-client'

/**
 * The waiting queue on the service's `/metrics`. The queue lives in the database, shared by every replica, so each
 * replica reports the whole queue (no tenant label: one series per replica); read it with `max()`, never `sum()`.
 */
export interface QueueMetrics {
  /** sessions waiting for a human, every scope, as this replica's last timer pass counted them */
  waiting: Gauge
}

export function createQueueMetrics(registry: Registry): QueueMetrics {
  return {
    waiting: new Gauge({
      name: 'conversations_waiting_sessions',
      help: 'sessions waiting for a human in the queue (all scopes), counted by the last timer pass of this replica',
      registers: [registry],
    }),
  }
}
