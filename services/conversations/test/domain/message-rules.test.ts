import t from 'tap'
import { messageProblem, subjectFrom } from '../../src/domain/message-rules.ts'

const limits = { max_bytes: 16, max_metadata_bytes: 64 }

t.test('content is bounded in UTF-8 bytes, not characters', async (t) => {
  t.equal(messageProblem(limits, { sender: 'agent', content: 'a'.repeat(16) }), undefined)
  t.same(messageProblem(limits, { sender: 'agent', content: 'a'.repeat(17) }), {
    problem: 'content_too_large',
    limit: 16,
  })
  // 6 × 3 bytes = 18 > 16, though only 6 characters
  t.match(messageProblem(limits, { sender: 'customer', content: '€€€€€€' }), { problem: 'content_too_large' })
})

t.test('metadata is bounded as JSON', async (t) => {
  t.equal(messageProblem(limits, { sender: 'agent', content: 'x', metadata: { a: 1 } }), undefined)
  t.match(messageProblem(limits, { sender: 'agent', content: 'x', metadata: { a: 'y'.repeat(64) } }), {
    problem: 'metadata_too_large',
    limit: 64,
  })
})

t.test('only the system writes system messages', async (t) => {
  t.equal(messageProblem(limits, { sender: 'system', kind: 'system', content: 'x' }), undefined)
  for (const sender of ['agent', 'customer', 'ai'] as const) {
    t.same(messageProblem(limits, { sender, kind: 'system', content: 'x' }), {
      problem: 'kind_not_for_sender',
      kind: 'system',
      sender,
    })
    for (const kind of ['text', 'image', 'file'] as const) {
      t.equal(messageProblem(limits, { sender, kind, content: 'x' }), undefined, `${sender} ${kind}`)
    }
  }
})

t.test('a subject from the first line', async (t) => {
  t.equal(subjectFrom('  Hello there \nsecond line'), 'Hello there')
  t.equal(subjectFrom('x'.repeat(200)).length, 120)
  t.ok(subjectFrom('x'.repeat(200)).endsWith('…'))
  t.equal(subjectFrom('\n\n'), '')
})

t.test('a subject is cut by code points: an emoji at the cut is never split in half', async (t) => {
  const cut = subjectFrom(`${'a'.repeat(118)}😀 and more`)
  t.ok(cut.isWellFormed(), 'no unpaired surrogate')
  t.equal(cut, `${'a'.repeat(118)}😀…`)
  t.equal([...cut].length, 120, '120 characters, the emoji one of them')
  const emojis = '😀'.repeat(130)
  t.equal(subjectFrom(emojis), `${'😀'.repeat(119)}…`)
  t.equal(subjectFrom('😀'.repeat(120)), '😀'.repeat(120), 'exactly the limit in characters is kept whole')
})
