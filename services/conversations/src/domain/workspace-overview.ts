import { WAITING_STATUS, WORKING_STATUSES } from './session-rules.ts'

export interface ChannelStatusCount {
  channel: string
  status: string
  n: number
}

export interface AgentPresence {
  status: string
  load: number
  max_concurrent: number
}

export interface ChannelOverview {
  channel: string
  active_sessions: number
  waiting_sessions: number
}

const working = new Set<string>(WORKING_STATUSES)

/**
 * The overview's counts (`GET /api/omni/workspace`). Active = open and with someone answering (active or transferred);
 * waiting = waiting for a human (waiting_human). Channels with neither are left out.
 */
export function channelOverview(counts: ChannelStatusCount[]): {
  total_active_sessions: number
  waiting_queue: number
  channels: ChannelOverview[]
} {
  const byChannel = new Map<string, ChannelOverview>()
  let active = 0
  let waiting = 0
  for (const { channel, status, n } of counts) {
    const c = byChannel.get(channel) ?? { channel, active_sessions: 0, waiting_sessions: 0 }
    if (working.has(status)) {
      c.active_sessions += n
      active += n
    } else if (status === WAITING_STATUS) {
      c.waiting_sessions += n
      waiting += n
    } else continue
    byChannel.set(channel, c)
  }
  const channels = [...byChannel.values()].sort((a, b) => (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0))
  return { total_active_sessions: active, waiting_queue: waiting, channels }
}

/**
 * Agents signed in (status online or busy) and, of them, the busy ones: those who said so, and online ones at
 * their capacity (routing would pass them by).
 */
export function agentOverview(agents: AgentPresence[]): { online_agents: number; busy_agents: number } {
  let online = 0
  let busy = 0
  for (const a of agents) {
    if (a.status !== 'online' && a.status !== 'busy') continue
    online++
    if (a.status === 'busy' || a.load >= a.max_concurrent) busy++
  }
  return { online_agents: online, busy_agents: busy }
}
