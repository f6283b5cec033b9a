import { ERASED_TEXT, maskIdentifiers } from '@switchboard/contracts'
import t from 'tap'
import { maskPerson } from '../../src/domain/erasure-mask.ts'

const ids = ['Zoe Erasmus', 'zoe@acme.test', '+4930555111', 'zo']

t.test('maskIdentifiers: every occurrence, any case; too short an identifier is left alone', async (t) => {
  t.equal(maskIdentifiers('Dear ZOE ERASMUS (zoe@acme.test)', ids), `Dear ${ERASED_TEXT} (${ERASED_TEXT})`)
  t.equal(maskIdentifiers('call +4930555111 or +4930555111', ids), `call ${ERASED_TEXT} or ${ERASED_TEXT}`)
  t.equal(maskIdentifiers('zoo and zone', ids), 'zoo and zone', "'zo' is shorter than 3: not a pattern")
  t.equal(maskIdentifiers('a.b*c', ['a.b*c']), ERASED_TEXT, 'regular-expression characters are literal')
  t.equal(maskIdentifiers('axb*c', ['a.b*c']), 'axb*c')
})

t.test("maskPerson: identifiers anywhere; a record about the person loses its personal fields' values", async (t) => {
  const record = {
    name: 'Someone Else',
    email: 'other@acme.test',
    status: 'open',
    count: 3,
    nested: { content: 'hello', tags: ['vip', 'Zoe Erasmus'], id: 'c-1' },
    list: [{ comment: 'fine', rating: 4 }],
  }
  t.same(maskPerson(record, ids, false), {
    ...record,
    nested: { ...record.nested, tags: ['vip', ERASED_TEXT] },
  })
  t.same(maskPerson(record, ids, true), {
    name: ERASED_TEXT,
    email: ERASED_TEXT,
    status: 'open',
    count: 3,
    nested: { content: ERASED_TEXT, tags: ['vip', ERASED_TEXT], id: 'c-1' },
    list: [{ comment: ERASED_TEXT, rating: 4 }],
  })
  t.equal(maskPerson(null, ids, true), null)
  t.equal(maskPerson('Zoe Erasmus called', ids, true), `${ERASED_TEXT} called`)
})
