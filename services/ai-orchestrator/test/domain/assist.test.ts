import t from 'tap'
import { capped, intentOf } from '../../src/domain/assist.ts'
import { fullTextTerms, likePattern, queryTokens, termShare, tokenScore } from '../../src/domain/search-terms.ts'

t.test('query tokens', async (t) => {
  t.same(queryTokens('Refund my INVOICE, refund_2 now!'), ['refund', 'my', 'invoice', 'refund_2', 'now'])
  t.same(queryTokens('我要退款 please'), ['我', '要', '退', '款', 'please'], 'each Han character alone')
  t.same(queryTokens('пароль Café'), ['пароль', 'café'], 'any script')
  t.same(queryTokens('a a A'), ['a'], 'unique, lowercased')
  t.same(queryTokens(`${'x'.repeat(32)} ${'y'.repeat(31)}`), ['y'.repeat(31)], 'shorter than 32 code points')
  t.equal(queryTokens(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')).length, 20, 'at most 20')
  t.same(queryTokens('?!… "" -- ()'), [])
})

t.test('scores: the share of tokens found', async (t) => {
  t.equal(tokenScore(['refund', 'invoice'], 'Refund for an order'), 0.5)
  t.equal(tokenScore(['refund', 'invoice'], 'INVOICE refund'), 1)
  t.equal(tokenScore(['x', 'y', 'z'], 'x'), 0.333)
  t.equal(tokenScore([], 'anything'), 0)
  t.equal(termShare(['cafe', 'hours'], 'Le café ouvre'), 0.5, 'accents aside')
})

t.test('search terms and LIKE patterns', async (t) => {
  t.same(fullTextTerms('"reset" OR -password* (NEAR)'), ['reset', 'or', 'password', 'near'], 'operators are gone')
  t.equal(fullTextTerms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')).length, 32)
  t.equal(likePattern('50%_off\\'), '%50\\%\\_off\\\\%')
})

t.test('intent buckets and confidence', async (t) => {
  const intent = (q: string) => intentOf(q, queryTokens(q))
  t.same(intent('???'), { label: 'general', confidence: 0.2 }, 'no token')
  t.same(intent('where is the office'), { label: 'general', confidence: 0.35 })
  t.same(intent('I was charged twice'), { label: 'billing', confidence: 0.6, matches: ['charge'] })
  t.same(intent('refund my invoice payment'), {
    label: 'billing',
    confidence: 0.8,
    matches: ['invoice', 'payment', 'refund'],
  })
  t.match(intent('the app crashes with an error on login'), { label: 'technical', confidence: 0.9 })
  t.match(intent('error bug crash broken login password install fail'), { label: 'technical', confidence: 0.95 })
  t.match(intent('我要投诉，太糟糕了'), { label: 'complaint', matches: ['投诉', '糟糕'], confidence: 0.7 })
  t.match(intent('申请退款'), { label: 'billing', matches: ['退款'] })
  t.match(intent('I complain: the billing is terrible'), { label: 'complaint', confidence: 0.7 }, 'more hits win')
  t.match(intent('complaint about my bill'), { label: 'complaint', confidence: 0.6 }, 'a tie: complaint first')
  t.equal(intent('rapid happy').label, 'general', 'api and app are whole words')
})

t.test('limits are capped', async (t) => {
  t.equal(capped(undefined, 5, 20), 5)
  t.equal(capped(7, 5, 20), 7)
  t.equal(capped(500, 5, 20), 20)
})
