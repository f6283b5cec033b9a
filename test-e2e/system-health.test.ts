// GET /api/system/health through the gateway in both run modes: every unit the gateway routes to, each with its
// replicas asked for /ready — all ready on a started system; admin (or a service holding *) only.
import { mintServiceToken } from '@switchboard/cli'
import { login } from './harness/auth.ts'
import { client } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'

// the fleet's units may take minutes to listen on a loaded machine
inEachMode('system health', { liveTimeoutMs: 240_000 }, async (t, system) => {
  const api = client(system.url)
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const res = await api.get('/api/system/health', { token: admin.token })
  t.equal(res.status, 200, res.text)
  t.equal(res.body.status, 'ready', 'every unit ready')
  const units = res.body.units as { unit: string; status: string; replicas: number; replicas_ready: number }[]
  t.same(
    units.map((u) => u.unit).sort(),
    [
      'ai-orchestrator',
      'audit',
      'config-governance',
      'conversations',
      'identity',
      'realtime-voice',
      'statistics',
      'tickets',
    ],
    'the eight units',
  )
  for (const u of units) {
    t.equal(u.status, 'ready', `${u.unit} ready`)
    t.ok(u.replicas >= 1 && u.replicas_ready === u.replicas, `${u.unit}: ${u.replicas_ready} of ${u.replicas}`)
  }
  const { token: ops } = await mintServiceToken({ service: 'ops', permissions: ['*'], env: system.env })
  t.equal((await api.get('/api/system/health', { token: ops })).status, 200, 'a service holding *')
  const refused = await api.get('/api/system/health', { token: agent.token })
  t.equal(refused.status, 403, 'an agent is refused')
  t.match(refused.body, { code: String, message: String })
  t.equal((await api.get('/api/system/health')).status, 401, 'anonymous')
})
