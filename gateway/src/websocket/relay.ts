import type { FastifyRequest } from 'fastify'
import type WebSocket from 'ws'
import type { GatewayConfig } from '../config.ts'
import type { GatewayMetrics } from '../metrics.ts'
import { CLOSE, closeSide, type LiveSocket, type LiveSockets } from './live-sockets.ts'

/** the code ws reports for a close frame that carried none */
const NO_STATUS = 1005

/** ws accepts these close codes in a close frame (RFC 6455 §7.4); 1005/1006 only describe what happened. */
function sendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999)
  )
}

export interface RelayDeps {
  limits: GatewayConfig['websocket']
  metrics: GatewayMetrics
  live: LiveSockets
}

/**
 * Joins a client half to its upstream half: frames both ways as they are (text stays text, binary binary,
 * in order), backpressure, the client's message budget, close codes both ways, bookkeeping in `live`.
 */
export function createJoin({ limits, metrics, live }: RelayDeps) {
  /** Per-connection message budget of a client: a one-second fixed window. */
  function overRate(): () => boolean {
    let windowStart = 0
    let count = 0
    return () => {
      const now = Date.now()
      if (now - windowStart >= 1000) {
        windowStart = now
        count = 0
      }
      return ++count > limits.max_messages_per_second
    }
  }

  function relay(from: WebSocket, to: WebSocket, direction: 'to_upstream' | 'to_client') {
    let paused = false
    // Only what clients send is budgeted; the service is trusted to pace itself.
    const flooding = direction === 'to_upstream' ? overRate() : () => false
    from.on('message', (data: Buffer, isBinary: boolean) => {
      if (to.readyState !== to.OPEN) return
      if (flooding()) {
        metrics.websocketMessages.inc({ direction: 'dropped' })
        closeSide(from, CLOSE.policy, 'message rate exceeded')
        return
      }
      metrics.websocketMessages.inc({ direction })
      to.send(data, { binary: isBinary }, () => {
        if (paused && to.bufferedAmount < limits.max_buffered_bytes / 2) {
          paused = false
          from.resume()
        }
      })
      if (!paused && to.bufferedAmount > limits.max_buffered_bytes) {
        paused = true
        from.pause()
      }
    })
  }

  return function join(entry: LiveSocket, request: FastifyRequest) {
    const { client, upstream } = entry
    live.add(entry)
    metrics.websocketConnections.set(live.size)
    relay(client, upstream, 'to_upstream')
    relay(upstream, client, 'to_client')
    // 1005 (a close frame without a code) is a clean close; 1006 (no close frame) is a lost connection.
    client.on('close', (code, reason) => {
      if (code === NO_STATUS) closeSide(upstream, CLOSE.normal, '')
      else closeSide(upstream, sendable(code) ? code : CLOSE.goingAway, reason.toString())
    })
    upstream.on('close', (code, reason) => {
      if (code === NO_STATUS) closeSide(client, CLOSE.normal, '')
      else if (sendable(code)) closeSide(client, code, reason.toString())
      else closeSide(client, CLOSE.internal, 'upstream connection lost')
    })
    client.on('error', (err) => request.log.debug({ err }, 'websocket: client error'))
    upstream.on('error', (err) => request.log.warn({ err }, 'websocket: upstream error'))
    let ended = 0
    const gone = () => {
      if (++ended < 2) return
      live.delete(entry)
      metrics.websocketConnections.set(live.size)
    }
    client.once('close', gone)
    upstream.once('close', gone)
    upstream.resume() // it was paused since its handshake: what it said meanwhile flows now
  }
}
