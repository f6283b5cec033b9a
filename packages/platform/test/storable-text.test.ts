// Audit text a store would refuse (issue 19 §1): NUL characters and unpaired surrogates become visible markers, and
// the record says it was sanitised. Pure functions; the hook's use of them is tested in audit-hostile.test.ts.
import t from 'tap'
import {
  NUL_MARKER,
  SURROGATE_MARKER,
  storableAuditRecord,
  storableText,
  storableValue,
  TOO_DEEP,
} from '../src/index.ts'

t.test('storableText: NUL → ␀, an unpaired surrogate → �, everything else as it is', async (t) => {
  t.equal(storableText('a\u0000b'), `a${NUL_MARKER}b`)
  t.equal(storableText('\ud800x\udc00'), `${SURROGATE_MARKER}x${SURROGATE_MARKER}`)
  t.equal(storableText('😀 ü \u2400'), '😀 ü \u2400', 'pairs, accents and the marker itself are kept')
  t.equal(storableText('\u0000\ud83d'), `${NUL_MARKER}${SURROGATE_MARKER}`)
})

t.test('storableValue: strings and keys at any depth, and whether anything changed', async (t) => {
  const clean = { a: ['x', 1, null, { b: true }] }
  t.same(storableValue(clean), { value: clean, changed: false })
  const dirty = storableValue({ 'k\u0000': [{ v: 'x\ud800' }], ok: 'y' })
  t.equal(dirty.changed, true)
  t.same(dirty.value, { [`k${NUL_MARKER}`]: [{ v: `x${SURROGATE_MARKER}` }], ok: 'y' })
  let deep: unknown = 'x'
  for (let i = 0; i < 100; i++) deep = [deep]
  t.match(JSON.stringify(storableValue(deep).value), TOO_DEEP, 'bounded depth')
})

t.test('storableAuditRecord: every text field and snapshot, flagged only when something was replaced', async (t) => {
  const base = {
    actor_user_id: 'u1',
    principal_kind: 'agent',
    action: 'macros.update',
    resource_type: 'macros',
    resource_id: 'm1',
    route: '/api/macros/:id',
    method: 'PUT',
    status_code: 400,
    success: false,
    request_id: 'r1',
    client_ip: '127.0.0.1',
    user_agent: 'probe',
    request_json: { name: 'ok' },
    before_json: null,
    after_json: null,
  }
  t.same(storableAuditRecord(base), base, 'a clean record is unchanged and not flagged')
  const out = storableAuditRecord({ ...base, resource_id: '\u0000', request_json: { name: 'a\u0000b', t: '\udfff' } })
  t.equal(out.sanitised, true)
  t.equal(out.resource_id, NUL_MARKER)
  t.same(out.request_json, { name: `a${NUL_MARKER}b`, t: SURROGATE_MARKER })
  t.notMatch(JSON.stringify(out), /\\u0000|\\ud[89a-f]/i, 'its JSON carries no escape PostgreSQL refuses')
  t.equal(storableAuditRecord({ ...base, sanitised: true }).sanitised, true, 'an earlier writer’s flag is kept')
})
