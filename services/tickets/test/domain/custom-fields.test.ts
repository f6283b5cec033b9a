import t from 'tap'
import {
  definitionProblems,
  type FieldDefinition,
  filterTerm,
  isCalendarDate,
  isShown,
  mergeValues,
  valueRows,
  valuesProblems,
} from '../../src/domain/custom-fields.ts'

const field = (over: Partial<FieldDefinition> & Pick<FieldDefinition, 'key' | 'type'>): FieldDefinition => ({
  name: over.key,
  required: false,
  active: true,
  options: [],
  validation: {},
  show_when: null,
  ...over,
})
const ticket = { category: 'billing', priority: 'normal', source: 'web', status: 'open' }

t.test('definitions: options, rules by type, bounds, regex, show_when', async (t) => {
  t.same(definitionProblems(field({ key: 'a', type: 'string', validation: { max_length: 20, regex: '^x' } })), [])
  t.same(definitionProblems(field({ key: 'p', type: 'select', options: ['a', 'b'] })), [])
  t.match(definitionProblems(field({ key: 'p', type: 'select' })), [/body.options: a select field needs/])
  t.match(definitionProblems(field({ key: 'p', type: 'multiselect', options: ['a', 'a'] })), [/unique/])
  t.match(definitionProblems(field({ key: 'n', type: 'number', options: ['a'] })), [/takes no options/])
  t.match(definitionProblems(field({ key: 'n', type: 'number', validation: { regex: 'x' } })), [
    /body.validation.regex: does not apply to a number field/,
  ])
  t.match(definitionProblems(field({ key: 'n', type: 'number', validation: { min: 5, max: 1 } })), [/min is above max/])
  t.match(definitionProblems(field({ key: 's', type: 'string', validation: { min_length: 9, max_length: 2 } })), [
    /min_length is above max_length/,
  ])
  t.match(definitionProblems(field({ key: 's', type: 'string', validation: { regex: '(a+)+' } })), [
    /body.validation.regex: a repeated group/,
  ])
  t.match(definitionProblems(field({ key: 's', type: 'string', show_when: { key: 's', equals: 'x' } })), [
    /cannot depend on itself/,
  ])
  t.match(definitionProblems(field({ key: 's', type: 'string', show_when: { key: 'plan', equals: 'a', in: ['b'] } })), [
    /exactly one of/,
  ])
  t.match(definitionProblems(field({ key: 's', type: 'string', show_when: { key: 'Ticket.x', equals: 'a' } })), [
    /body.show_when.key/,
  ])
  t.same(
    definitionProblems(field({ key: 's', type: 'string', show_when: { key: 'ticket.category', equals: 'x' } })),
    [],
  )
})

t.test('values: types and rules, each problem naming its field', async (t) => {
  const defs = [
    field({ key: 'code', type: 'string', validation: { regex: '^[A-Z]{2}-\\d+$', max_length: 10 } }),
    field({ key: 'seats', type: 'number', validation: { min: 1, max: 100 } }),
    field({ key: 'vip', type: 'boolean' }),
    field({ key: 'due', type: 'date' }),
    field({ key: 'plan', type: 'select', options: ['free', 'pro'] }),
    field({ key: 'areas', type: 'multiselect', options: ['eu', 'us', 'apac'], validation: { max_length: 2 } }),
    field({ key: 'old', type: 'string', active: false }),
  ]
  const good = { code: 'AB-12', seats: 3, vip: true, due: '2026-02-28', plan: 'pro', areas: ['eu', 'us'] }
  t.same(valuesProblems(defs, good, good, ticket, { checkRequired: true }), [])
  const bad = {
    code: 'ab-12',
    seats: 0,
    vip: 'yes',
    due: '2026-02-30',
    plan: 'gold',
    areas: ['eu', 'us', 'apac'],
    old: 'x',
    nope: 1,
  }
  t.same(valuesProblems(defs, bad, bad, ticket, { checkRequired: true }), [
    'body.custom_fields.areas: choose at most 2',
    'body.custom_fields.code: must match ^[A-Z]{2}-\\d+$',
    'body.custom_fields.due: must be a date (YYYY-MM-DD)',
    'body.custom_fields.nope: no active custom field nope in this workspace',
    'body.custom_fields.old: no active custom field old in this workspace',
    'body.custom_fields.plan: must be one of free, pro',
    'body.custom_fields.seats: must be at least 1',
    'body.custom_fields.vip: must be true or false',
  ])
  t.match(valuesProblems(defs, { areas: ['eu', 'eu'] }, {}, ticket, { checkRequired: false }), [/must not repeat/])
  t.match(valuesProblems(defs, { code: 'AB-1234567890' }, {}, ticket, { checkRequired: false }), [/at most 10/])
  t.same(valuesProblems(defs, { nope: null }, {}, ticket, { checkRequired: true }), [], 'null removes, any key')
})

t.test('required only while show_when holds', async (t) => {
  const defs = [
    field({ key: 'plan', type: 'select', options: ['free', 'pro'] }),
    field({ key: 'seats', type: 'number', required: true, show_when: { key: 'plan', equals: 'pro' } }),
    field({ key: 'invoice', type: 'string', required: true, show_when: { key: 'ticket.category', in: ['billing'] } }),
    field({ key: 'reason', type: 'string', required: true, show_when: { key: 'plan', not_equals: 'free' } }),
  ]
  const check = (values: Record<string, unknown>, ctx = ticket) =>
    valuesProblems(defs, {}, values, ctx, { checkRequired: true })
  t.same(check({ plan: 'free', invoice: 'x' }), [], 'free: seats and reason hidden')
  t.same(check({ plan: 'pro', invoice: 'x' }), [
    'body.custom_fields.reason: required',
    'body.custom_fields.seats: required',
  ])
  t.same(check({ plan: 'free' }), ['body.custom_fields.invoice: required'], 'billing tickets need an invoice')
  t.same(check({ plan: 'free' }, { ...ticket, category: 'tech' }), [], 'other categories do not')
  t.same(check({ invoice: 'x' }), ['body.custom_fields.reason: required'], 'no plan: not_equals holds')
  t.same(
    valuesProblems(defs, {}, { plan: 'pro', invoice: '' }, ticket, { checkRequired: true }).length,
    3,
    'an empty string is no value',
  )
})

t.test('show_when over a multiselect, and merge patches', async (t) => {
  const def = field({ key: 'x', type: 'string', show_when: { key: 'areas', equals: 'eu' } })
  t.ok(isShown(def, ticket, { areas: ['us', 'eu'] }))
  t.notOk(isShown(def, ticket, { areas: ['us'] }))
  t.notOk(isShown(def, ticket, {}))
  t.same(mergeValues({ a: 1, b: 2 }, { b: null, c: 3 }), { a: 1, c: 3 })
  t.ok(isCalendarDate('2028-02-29'))
  t.notOk(isCalendarDate('2027-02-29'))
})

t.test('index rows and filter terms', async (t) => {
  t.same(valueRows({ seats: 3, plan: 'pro', vip: false, areas: ['eu', 'us'], gone: null }), [
    { key: 'seats', value_text: '3', value_number: 3 },
    { key: 'plan', value_text: 'pro', value_number: null },
    { key: 'vip', value_text: 'false', value_number: null },
    { key: 'areas', value_text: 'eu', value_number: null },
    { key: 'areas', value_text: 'us', value_number: null },
  ])
  t.same(filterTerm('seats', ['3.0', '4'], ['number']), {
    ok: true,
    term: { key: 'seats', texts: [], numbers: [3, 4] },
  })
  t.match(filterTerm('seats', ['three'], ['number']), { ok: false, problem: /querystring.cf.seats: must be a number/ })
  t.match(filterTerm('plan', ['pro'], []), { ok: false, problem: /no custom field plan/ })
  t.same(filterTerm('plan', ['pro'], ['select']), { ok: true, term: { key: 'plan', texts: ['pro'], numbers: [] } })
})
