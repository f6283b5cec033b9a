import t from 'tap'
import { parseList, splitList } from '../../src/domain/lists.ts'

t.test('a comma-separated string is split, never stored as one element', async (t) => {
  t.same(splitList('vip, de'), ['vip', 'de'])
  t.same(splitList(['vip', 'de']), ['vip', 'de'])
  t.same(splitList(['vip,de', 'gold']), ['vip', 'de', 'gold'], 'elements with commas are split too')
  t.same(splitList(' a ,, b,a , '), ['a', 'b'], 'trimmed, empties dropped, duplicates removed, order kept')
  t.same(splitList(''), [])
  t.same(splitList([]), [])
})

t.test('bounds after splitting', async (t) => {
  t.same(parseList('a,b'), { ok: true, items: ['a', 'b'] })
  const many = Array.from({ length: 51 }, (_, i) => `t${i}`).join(',')
  t.match(parseList(many), { ok: false, problem: /at most 50 items/ })
  t.match(parseList(`ok,${'x'.repeat(65)}`), { ok: false, problem: /64 characters/ })
})
