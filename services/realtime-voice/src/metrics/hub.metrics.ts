import { SOCKET_MODES, type SocketMode } from '@switchboard/contracts'
import { Gauge, type Registry } from 'prom-client'

/**
 * The hub's sockets on the service's `/metrics`: this replica's, by kind (the hub's socket modes, as
 * `/api/v1/ws/stats` counts them). Replicas hold different sockets, so the fleet's total is `sum()`.
 */
export interface HubMetrics {
  /** a socket the registry took (+1) or let go (-1): counted on open and close, never recounted */
  socketCounted(kind: SocketMode, delta: 1 | -1): void
}

export function createHubMetrics(registry: Registry): HubMetrics {
  const sockets = new Gauge({
    name: 'realtime_hub_sockets',
    help: 'WebSocket clients connected to this hub replica, by kind (visitor, customer, console, service)',
    labelNames: ['kind'] as const,
    registers: [registry],
  })
  // every kind shown from the start, at 0: a panel sees a kind that has no socket yet
  for (const kind of SOCKET_MODES) sockets.set({ kind }, 0)
  return { socketCounted: (kind, delta) => sockets.inc({ kind }, delta) }
}
