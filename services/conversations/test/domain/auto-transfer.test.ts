import t from 'tap'
import { autoTransfer, handoverSummary } from '../../src/domain/auto-transfer.ts'

const m = (content: string, sender = 'customer') => ({ content, sender })

t.test('a hand-off keyword in one of the customer’s last five messages', async (t) => {
  t.match(autoTransfer([m('I want to talk to a HUMAN please')]), { should_transfer: true, reason: /human/ })
  t.match(autoTransfer([m('转人工')]), { should_transfer: true })
  t.match(autoTransfer([m('Agents, anyone?', 'user')]), { should_transfer: true }, '`user` is the earlier sender name')
  t.match(autoTransfer([m('this is urgent, reagent spilled')]), { should_transfer: false }, 'not inside a word')
  t.match(autoTransfer([m('human', 'ai')]), { should_transfer: false }, 'only the customer’s words count')
  const older = [m('human'), m('a'), m('b'), m('c'), m('d'), m('e')]
  t.match(
    autoTransfer(older.slice(0, 5).concat([m('ok', 'agent')])),
    { should_transfer: true },
    'within the last five customer messages',
  )
  t.match(autoTransfer(older), { should_transfer: true, reason: /longer than 5/ }, 'the keyword fell out; six is long')
})

t.test('a long conversation goes to a human; a short quiet one does not', async (t) => {
  t.match(autoTransfer([m('a'), m('b'), m('c'), m('d'), m('e'), m('f', 'ai')]), { should_transfer: true })
  t.match(autoTransfer([m('a'), m('b', 'ai')]), { should_transfer: false })
  t.match(autoTransfer([]), { should_transfer: false })
})

t.test('the hand-over summary names who and how long', async (t) => {
  t.equal(
    handoverSummary({ customer_id: 'c-1', visitor_id: null, message_count: 3 }),
    'Conversation with customer c-1, 3 messages so far.',
  )
  t.equal(
    handoverSummary({ customer_id: null, visitor_id: 'v-9', message_count: 1 }),
    'Conversation with visitor v-9, 1 message so far.',
  )
})
