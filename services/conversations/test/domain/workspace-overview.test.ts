import t from 'tap'
import { agentOverview, channelOverview } from '../../src/domain/workspace-overview.ts'

t.test('sessions per channel: active = active or transferred, waiting = waiting_human', async (t) => {
  const out = channelOverview([
    { channel: 'web', status: 'active', n: 3 },
    { channel: 'web', status: 'transferred', n: 1 },
    { channel: 'web', status: 'waiting_human', n: 2 },
    { channel: 'email', status: 'waiting_human', n: 1 },
    { channel: 'voice', status: 'closed', n: 9 },
  ])
  t.same(out, {
    total_active_sessions: 4,
    waiting_queue: 3,
    channels: [
      { channel: 'email', active_sessions: 0, waiting_sessions: 1 },
      { channel: 'web', active_sessions: 4, waiting_sessions: 2 },
    ],
  })
  t.same(channelOverview([]), { total_active_sessions: 0, waiting_queue: 0, channels: [] })
})

t.test('agents: online or busy are present; busy = status busy or at capacity', async (t) => {
  t.same(
    agentOverview([
      { status: 'online', load: 0, max_concurrent: 3 },
      { status: 'online', load: 3, max_concurrent: 3 },
      { status: 'busy', load: 0, max_concurrent: 3 },
      { status: 'offline', load: 5, max_concurrent: 3 },
      { status: 'away', load: 0, max_concurrent: 3 },
    ]),
    { online_agents: 3, busy_agents: 2 },
  )
})
