import { ERASED_TEXT } from '@switchboard/contracts'
import t from 'tap'
import { ErasedIndex, erasedMatch, maskedRecord, subjectOf } from '../../src/domain/erased-subjects.ts'
import type { AuditLog } from '../../src/schemas/audit.schemas.ts'

const index = new ErasedIndex(
  'acme',
  [
    subjectOf('acme', 'Zoe Erasmus', 'identifier'),
    subjectOf('acme', 'zoe@acme.test', 'identifier'),
    subjectOf('acme', '+49 30 555111', 'identifier'),
    subjectOf('acme', 'u-77', 'id'),
    subjectOf('acme', 'tk-9', 'resource'),
  ].filter((s) => s !== undefined),
)

t.test('a subject is a hash of tenant and words: no clear value, another tenant another digest', async (t) => {
  const s = subjectOf('acme', 'Zoe Erasmus', 'identifier')!
  t.match(s, { kind: 'identifier', tokens: 2, digest: /^[0-9a-f]{64}$/ })
  t.ok(s.lead >= 0 && s.lead < 65_536)
  t.same(subjectOf('acme', 'ZOE  erasmus!', 'identifier'), s, 'case and separators do not matter')
  t.not(subjectOf('other', 'Zoe Erasmus', 'identifier')!.digest, s.digest)
  t.equal(subjectOf('acme', '+++', 'identifier'), undefined, 'no word, nothing to match')
})

t.test('mask: whole words, any case, any separators around them', async (t) => {
  t.equal(index.mask('Dear ZOE ERASMUS, see mailto:Zoe@Acme.test.'), `Dear ${ERASED_TEXT}, see mailto:${ERASED_TEXT}.`)
  t.equal(index.mask('call +49 30 555111 now'), `call +${ERASED_TEXT} now`)
  t.equal(index.mask('Zoey Erasmus and zoe@acme.testing'), 'Zoey Erasmus and zoe@acme.testing', 'not inside words')
  t.equal(new ErasedIndex('other', []).mask('Zoe Erasmus'), 'Zoe Erasmus')
})

const record = (over: Partial<AuditLog>): AuditLog => ({
  id: 'r',
  created_at: '2026-11-27T00:00:00.000Z',
  actor_user_id: 'agent-1',
  principal_kind: 'agent',
  action: 'tickets.update',
  resource_type: 'tickets',
  resource_id: 'tk-1',
  route: '/api/tickets/:id',
  method: 'PUT',
  status_code: 200,
  success: true,
  request_id: 'q',
  client_ip: '10.0.0.1',
  user_agent: 'ua',
  tenant_id: 'acme',
  workspace_id: 'w',
  request_json: null,
  before_json: null,
  after_json: null,
  sanitised: false,
  event_id: 'e',
  ...over,
})

t.test('erasedMatch: by actor, by resource, by a name in the payload; otherwise nothing', async (t) => {
  t.same(erasedMatch(index, record({ actor_user_id: 'u-77' })), { own: true, resource: 'tk-1' })
  t.same(erasedMatch(index, record({ resource_id: 'tk-9' })), { own: false })
  t.same(erasedMatch(index, record({ after_json: { notes: ['see Zoe Erasmus'] } })), { own: false, resource: 'tk-1' })
  t.equal(erasedMatch(index, record({ request_json: { title: 'Zoey' } })), undefined)
  t.equal(erasedMatch(new ErasedIndex('acme', []), record({ actor_user_id: 'u-77' })), undefined)
})

t.test('maskedRecord: personal fields and the subjects masked, their own request without address', async (t) => {
  const r = record({ actor_user_id: 'u-77', request_json: { title: 'mine', status: 'open', tags: ['Zoe Erasmus'] } })
  const m = maskedRecord(index, r, erasedMatch(index, r)!)
  t.same(m.request_json, { title: ERASED_TEXT, status: 'open', tags: [ERASED_TEXT] })
  t.match(m, { client_ip: '', user_agent: '', action: 'tickets.update', actor_user_id: 'u-77' })
})
