import t from 'tap'
import {
  isAvailable,
  type RoutingCandidate,
  rankAgents,
  routingScore,
  skillMatch,
} from '../../src/domain/routing-score.ts'

const agent = (over: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  user_id: 'u1',
  status: 'online',
  skills: [],
  max_concurrent: 5,
  load: 0,
  rating: 5,
  avg_response_time: 0,
  ...over,
})
const need = (skills: string[] = [], priority = 'normal') => ({ skills, priority })

t.test('the earlier system’s score, term by term', async (t) => {
  t.equal(routingScore(agent(), need()), 5 + 3, 'rating + full spare capacity')
  t.equal(routingScore(agent({ load: 4 }), need()), 5 + 0.2 * 3 + 0, 'spare 1/5')
  t.equal(routingScore(agent({ avg_response_time: 300 }), need()), 5 + 3 + 1, '300 s → 1')
  t.equal(routingScore(agent({ avg_response_time: 60 }), need()), 5 + 3 + 2, 'fast, capped at 2')
  t.equal(routingScore(agent({ avg_response_time: 0 }), need()), 5 + 3, 'unmeasured: no speed bonus')
  t.equal(routingScore(agent({ skills: ['Billing'] }), need(['billing', 'refunds'])), 5 + 3 + 1, 'half the skills')
  t.equal(routingScore(agent(), need([], 'urgent')), 5 + 3 + 0.2)
  t.equal(routingScore(agent(), need([], 'high')), 5 + 3 + 0.1)
  t.equal(routingScore(agent(), need([], 'low')), 5 + 3)
  t.equal(routingScore(agent({ max_concurrent: 0 }), need()), 5, 'no capacity: no spare bonus (and not available)')
})

t.test('skills match case-insensitively, trimmed, duplicates counted once', async (t) => {
  t.equal(skillMatch(['BILLING', ' voice '], ['billing', 'Voice']), 1)
  t.equal(skillMatch(['billing'], ['billing', 'BILLING', 'refunds']), 0.5)
  t.equal(skillMatch(['billing'], []), 0, 'nothing required: no bonus')
  t.equal(skillMatch([], ['x']), 0)
})

t.test('only online agents under capacity are available', async (t) => {
  t.ok(isAvailable(agent()))
  t.notOk(isAvailable(agent({ status: 'busy' })))
  t.notOk(isAvailable(agent({ status: 'offline' })))
  t.notOk(isAvailable(agent({ load: 5 })))
  t.notOk(isAvailable(agent({ max_concurrent: 0 })))
})

t.test('ranking: best score first, then lower load, then user id; shifts filter', async (t) => {
  const agents = [
    agent({ user_id: 'c', rating: 4 }),
    agent({ user_id: 'b', rating: 5, load: 1, max_concurrent: 10 }),
    agent({ user_id: 'a', rating: 5, load: 2, max_concurrent: 20 }),
    agent({ user_id: 'full', rating: 9, load: 5 }),
    agent({ user_id: 'off', rating: 9, status: 'offline' }),
    agent({ user_id: 'skilled', rating: 4, skills: ['voice'] }),
  ]
  // b: 5 + 0.9·3 = 7.7; a: 5 + 0.9·3 = 7.7 (load 2 vs 1 → b first); c: 7; skilled: 4+3+2 = 9
  t.same(
    rankAgents(agents, need(['voice']), null).map((a) => a.user_id),
    ['skilled', 'b', 'a', 'c'],
  )
  t.same(
    rankAgents(agents, need(), null).map((a) => a.user_id),
    ['b', 'a', 'c', 'skilled'],
    'equal scores: lower load first; then user id',
  )
  const twins = [agent({ user_id: 'y' }), agent({ user_id: 'x' })]
  t.same(
    rankAgents(twins, need(), null).map((a) => a.user_id),
    ['x', 'y'],
    'a full tie goes to the lower user id',
  )
  t.same(
    rankAgents(agents, need(), new Set(['c', 'full'])).map((a) => a.user_id),
    ['c'],
    'a scope with shifts: only agents on shift, and still only available ones',
  )
  t.same(rankAgents(agents, need(), new Set()), [], 'shifts scheduled, nobody on shift now: nobody')
})
