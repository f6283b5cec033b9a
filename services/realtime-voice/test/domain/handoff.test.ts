import t from 'tap'
import { handoffWord } from '../../src/domain/handoff.ts'

t.test('handoff words: whole Latin words (any case, a plural too), Chinese words anywhere', async (t) => {
  const asks: Array<[string, string]> = [
    ['I want a human', 'human'],
    ['HUMAN!!', 'human'],
    ['can I talk to an agent?', 'agent'],
    ['Agents, anyone?', 'agents'],
    ['put me through to an operator', 'operator'],
    ['a customer service representative please', 'representative'],
    ['我要转人工', '转人工'],
    ['人工服务', '人工'],
    ['找客服', '客服'],
  ]
  for (const [text, word] of asks) t.equal(handoffWord(text), word, text)
  for (const text of [
    'the reagent arrived',
    'humanity',
    'humanely',
    'my agentic workflow',
    'inhuman prices',
    '',
    'hello',
  ]) {
    t.equal(handoffWord(text), undefined, text)
  }
})
