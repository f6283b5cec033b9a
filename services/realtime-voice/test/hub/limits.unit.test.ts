import t from 'tap'
import { overBudget } from '../../src/hub/limits.ts'

t.test('a budget per one-second window', async (t) => {
  let now = 1_000
  const over = overBudget(3, () => now)
  t.same([over(), over(), over(), over()], [false, false, false, true])
  now += 999
  t.ok(over(), 'still the same window')
  now += 1
  t.notOk(over(), 'a new window')
})
