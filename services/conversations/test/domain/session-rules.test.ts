import t from 'tap'
import { admission, canClose, closeText, reopenPatch } from '../../src/domain/session-rules.ts'

t.test('admission of a message by sender and session state', async (t) => {
  const open = { status: 'active', agent_id: null }
  const taken = { status: 'active', agent_id: 'agent-1' }
  const waiting = { status: 'waiting_human', agent_id: null }
  const closed = { status: 'closed', agent_id: 'agent-1' }
  for (const sender of ['customer', 'agent', 'ai', 'system'] as const) {
    t.equal(admission(sender, open), 'post', `${sender} to an open session`)
    t.equal(admission(sender, waiting), 'post', `${sender} to a waiting session`)
  }
  t.equal(admission('ai', taken), 'agent_handles', 'the AI never answers over an agent')
  t.equal(admission('ai', { status: 'transferred', agent_id: 'agent-2' }), 'agent_handles')
  t.equal(admission('customer', taken), 'post')
  t.equal(admission('system', taken), 'post')
  t.equal(admission('customer', closed), 'reopen', 'a customer reopens a closed session')
  for (const sender of ['agent', 'ai', 'system'] as const) t.equal(admission(sender, closed), 'closed', sender)
})

t.test('close and reopen', async (t) => {
  t.ok(canClose('active'))
  t.ok(canClose('waiting_human'))
  t.ok(canClose('transferred'))
  t.notOk(canClose('closed'))
  t.equal(closeText(undefined), 'The conversation was closed.')
  t.equal(closeText('resolved'), 'The conversation was closed. Reason: resolved.')
  t.same(reopenPatch('2026-01-01T00:00:00.000Z'), {
    status: 'active',
    ended_at: null,
    agent_id: null,
    updated_at: '2026-01-01T00:00:00.000Z',
  })
})
