import t from 'tap'
import { renderMacro } from '../../src/domain/macro-template.ts'
import { surveyChannel, surveyStatusAt } from '../../src/domain/survey-rules.ts'

t.test('macro placeholders', async (t) => {
  const values = { 'customer.name': 'Ann', 'ticket.id': 't-1', 'agent.name': 'Bob' }
  t.equal(
    renderMacro('Hi {{customer.name}}, ticket {{ ticket.id }} is with {{agent.name}}.', values),
    'Hi Ann, ticket t-1 is with Bob.',
  )
  t.equal(renderMacro('{{order.id}} and {{customer.email}} stay', values), '{{order.id}} and {{customer.email}} stay')
  t.equal(renderMacro('Hi {{customer.name}}', {}), 'Hi ', 'a known placeholder without a value is empty')
  t.equal(
    renderMacro('{{customer.name}} / {{agent.name}}', { 'customer.name': '{{agent.name}} $& $1', 'agent.name': 'Bob' }),
    '{{agent.name}} $& $1 / Bob',
    'a value is plain text: never expanded again, no replacement patterns',
  )
  t.equal(
    renderMacro('{{customer.name}}', { 'customer.name': 'A\u0000n\u001bn\tx\ny' }),
    'Ann\tx\ny',
    'control characters dropped',
  )
})

t.test('survey channel and status', async (t) => {
  t.equal(surveyChannel('chat'), 'chat')
  t.equal(surveyChannel('IM'), 'chat')
  t.equal(surveyChannel('phone'), 'voice')
  t.equal(surveyChannel('voice'), 'voice')
  t.equal(surveyChannel('web'), 'email')
  t.equal(surveyChannel('email'), 'email')
  const now = new Date('2026-11-24T00:00:00Z')
  t.equal(surveyStatusAt({ status: 'sent', expires_at: '2026-11-23T23:59:59Z' }, now), 'expired')
  t.equal(surveyStatusAt({ status: 'sent', expires_at: '2026-11-25T00:00:00Z' }, now), 'sent')
  t.equal(surveyStatusAt({ status: 'completed', expires_at: '2026-11-23T00:00:00Z' }, now), 'completed')
})
