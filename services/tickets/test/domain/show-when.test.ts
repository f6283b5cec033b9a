import t from 'tap'
import { type FieldDefinition, valuesProblems } from '../../src/domain/custom-fields.ts'
import {
  type Clause,
  conditionHolds,
  referenceProblems,
  type ShowWhen,
  showWhenProblems,
} from '../../src/domain/show-when.ts'

const ticket = { category: 'billing', priority: 'high', source: 'web', status: 'open' }
const all = (...clauses: Clause[]): ShowWhen => ({ all: clauses })
const any = (...clauses: Clause[]): ShowWhen => ({ any: clauses })

t.test('the {all|any: [{field, op, value}]} form: what a definition may say', async (t) => {
  t.same(showWhenProblems('x', all({ field: 'ticket.priority', op: 'eq', value: 'high' })), [])
  t.same(
    showWhenProblems(
      'x',
      any(
        { field: 'cf.plan', op: 'in', value: ['pro', 'team'] },
        { field: 'ticket.category', op: 'neq', value: 'sales' },
        { field: 'cf.seats', op: 'ne', value: 1 },
        { field: 'cf.vip', op: 'exists' },
        { field: 'ticket.status', op: 'not_in', value: ['closed'] },
      ),
    ),
    [],
  )
  const cases: Array<[ShowWhen, RegExp]> = [
    [all({ field: 'ticket.owner', op: 'eq', value: 'a' }), /body.show_when.all.0.field: one of ticket.category/],
    [all({ field: 'plan', op: 'eq', value: 'a' }), /body.show_when.all.0.field: .* or cf.<key>/],
    [all({ field: 'cf.Bad-Key', op: 'eq', value: 'a' }), /all.0.field/],
    [any({ field: 'cf.x', op: 'eq', value: 'a' }), /body.show_when.any.0.field: a field cannot depend on itself/],
    [all({ field: 'cf.plan', op: 'like', value: 'a' }), /body.show_when.all.0.op: one of eq, neq, ne, in/],
    [all({ field: 'cf.plan', op: 'eq' }), /all.0.value: eq takes one value/],
    [all({ field: 'cf.plan', op: 'neq', value: ['a'] }), /all.0.value: neq takes one value/],
    [all({ field: 'cf.plan', op: 'in', value: 'a' }), /all.0.value: in takes a list of 1 to 100 strings/],
    [all({ field: 'cf.plan', op: 'eq', value: { $ne: 1 } as never }), /all.0.value: eq takes one value, a string/],
    [all({ field: 'cf.plan', op: 'eq', value: 'x'.repeat(501) }), /at most 500 characters/],
    [all({ field: 'cf.plan', op: 'in', value: [['a']] as never }), /all.0.value: in takes a list/],
    [{ key: 'plan', equals: { a: 1 } as never }, /body.show_when.equals: a string \(at most 500 characters\)/],
    [{ key: 'plan', in: [null] as never }, /body.show_when.in: a list of 1 to 100/],
    [all({ field: 'cf.plan', op: 'not_in', value: [] }), /all.0.value: not_in takes a list/],
    [all({ field: 'cf.plan', op: 'exists', value: true }), /all.0.value: exists takes no value/],
    [{ all: [] }, /body.show_when.all: 1 to 20 conditions/],
    [{ any: [{ field: 'cf.a', op: 'exists' }], all: [{ field: 'cf.a', op: 'exists' }] }, /one of all, any/],
    [{ key: 'plan', equals: 'a', all: [{ field: 'cf.a', op: 'exists' }] }, /not both/],
    [all({ field: 'ticket.priority', op: 'eq', value: 'hgih' }), /all.0.value: hgih is not a ticket.priority/],
    [any({ field: 'ticket.status', op: 'in', value: ['open', 'gone'] }), /any.0.value: gone is not a ticket.status/],
    [{ key: 'ticket.priority', in: ['high', 'meh'] }, /body.show_when.in: meh is not a ticket.priority/],
  ]
  for (const [cond, message] of cases) t.match(showWhenProblems('x', cond), [message], JSON.stringify(cond))
  t.equal(
    showWhenProblems('x', all(...Array.from({ length: 21 }, () => ({ field: 'cf.a', op: 'exists' })))).length,
    1,
    'at most 20 conditions',
  )
})

t.test('references: the fields named exist in the workspace, and a select only by its options', async (t) => {
  const fields = new Map([
    ['plan', { type: 'select', options: ['free', 'pro'] }],
    ['areas', { type: 'multiselect', options: ['eu', 'us'] }],
    ['seats', { type: 'number', options: [] }],
  ])
  t.same(referenceProblems(all({ field: 'cf.plan', op: 'in', value: ['free', 'pro'] }), fields), [])
  t.same(referenceProblems(all({ field: 'cf.seats', op: 'eq', value: 3 }), fields), [])
  t.same(referenceProblems(all({ field: 'ticket.category', op: 'eq', value: 'anything' }), fields), [])
  t.same(referenceProblems(any({ field: 'cf.nope', op: 'exists' }), fields), [
    'body.show_when.any.0.field: no custom field nope in this workspace',
  ])
  t.same(referenceProblems(all({ field: 'cf.areas', op: 'eq', value: 'mars' }), fields), [
    'body.show_when.all.0.value: mars is not an option of areas',
  ])
  t.same(referenceProblems({ key: 'nope', equals: 'a' }, fields), [
    'body.show_when.key: no custom field nope in this workspace',
  ])
  t.same(referenceProblems({ key: 'plan', not_equals: 'gold' }, fields), [
    'body.show_when.not_equals: gold is not an option of plan',
  ])
})

t.test('evaluation: all / any, each op, values compared as text, multiselect choices', async (t) => {
  const values = { plan: 'pro', seats: 5, areas: ['eu', 'us'], empty: '' }
  const holds = (cond: ShowWhen, v: Record<string, unknown> = values, tk = ticket) => conditionHolds(cond, tk, v)
  t.ok(holds(all({ field: 'ticket.priority', op: 'eq', value: 'high' })))
  t.notOk(holds(all({ field: 'ticket.priority', op: 'eq', value: 'low' })))
  t.ok(holds(all({ field: 'cf.seats', op: 'eq', value: '5' })), '5 and "5" are one value')
  t.ok(holds(all({ field: 'cf.areas', op: 'eq', value: 'us' })), 'a multiselect equals a choice it holds')
  t.ok(holds(all({ field: 'cf.plan', op: 'neq', value: 'free' })))
  t.notOk(holds(all({ field: 'cf.plan', op: 'ne', value: 'pro' })))
  t.ok(holds(all({ field: 'cf.other', op: 'neq', value: 'x' })), 'a field with no value is not x')
  t.ok(holds(all({ field: 'cf.plan', op: 'in', value: ['team', 'pro'] })))
  t.notOk(holds(all({ field: 'cf.areas', op: 'not_in', value: ['eu'] })))
  t.ok(holds(all({ field: 'cf.other', op: 'not_in', value: ['eu'] })))
  t.ok(holds(all({ field: 'cf.plan', op: 'exists' })))
  t.notOk(holds(all({ field: 'cf.empty', op: 'exists' })), 'an empty string is no value')
  t.notOk(holds(all({ field: 'cf.other', op: 'exists' })))
  t.notOk(holds(all({ field: 'cf.plan', op: 'in', value: ['team'] })), 'a missing choice')
  const both = [
    { field: 'ticket.category', op: 'eq', value: 'billing' },
    { field: 'cf.plan', op: 'eq', value: 'free' },
  ]
  t.notOk(holds({ all: both }), 'all: every condition')
  t.ok(holds({ any: both }), 'any: one is enough')
  t.notOk(holds({ any: [{ field: 'cf.plan', op: 'regex', value: '.*' }] }), 'an unknown op never holds')
  t.ok(conditionHolds(null, ticket, values), 'no condition: always shown')
  t.ok(holds({ key: 'seats', equals: 5 }), 'the single form too: a number')
  t.ok(holds({ key: 'seats', equals: '5' }), 'and one stored as text by the earlier coercion')
  t.ok(holds({ key: 'vip', equals: true }, { vip: true }))
  t.ok(holds({ key: 'vip', equals: 'true' }, { vip: true }))
  t.notOk(holds({ key: 'seats', not_equals: 5 }))
})

t.test('required while shown, for both forms alike', async (t) => {
  const field = (key: string, show_when: ShowWhen): FieldDefinition => ({
    key,
    name: key,
    type: 'string',
    required: true,
    active: true,
    options: [],
    validation: {},
    show_when,
  })
  const defs = [
    field(
      'po_number',
      all({ field: 'ticket.category', op: 'eq', value: 'billing' }, { field: 'cf.plan', op: 'exists' }),
    ),
    field('escalation', any({ field: 'ticket.priority', op: 'in', value: ['high', 'urgent'] })),
    field('contract', { key: 'plan', equals: 'pro' }),
  ]
  const check = (values: Record<string, unknown>, tk = ticket) =>
    valuesProblems(defs, {}, values, tk, { checkRequired: true })
  t.same(check({ plan: 'pro' }), [
    'body.custom_fields.contract: required',
    'body.custom_fields.escalation: required',
    'body.custom_fields.po_number: required',
  ])
  t.same(check({ plan: 'free', escalation: 'E-1', po_number: 'PO' }), [], 'free plan: no contract')
  t.same(check({}, { ...ticket, priority: 'low' }), [], 'no plan, low priority: nothing shows')
  t.same(check({ plan: 'free' }, { ...ticket, category: 'tech', priority: 'low' }), [], 'all: one condition fails')
})
