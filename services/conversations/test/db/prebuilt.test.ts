// A statement built once and run with new values (src/db/prebuilt.ts), on each storage mode's own database: the
// values land where the builder put them (a value used twice, a constant of the builder kept), each shape and each
// dialect compiled once, and the database's plugins see every run.
import { inEachStorageMode } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import { prebuilt } from '../../src/db/prebuilt.ts'
import { sessionsFixture } from '../helpers/sessions-fixture.ts'

let builds = 0
// one for both modes, as a module's statement is: PostgreSQL's SQL must never reach SQLite or the reverse
const sessionsOf = prebuilt((db: Kysely<any>, v: { id: string; status: string; subject?: string }) => {
  builds++
  let q = db
    .selectFrom('sessions')
    .select((eb) => ['id', 'status', eb.val(v.id).as('asked'), eb.lit(7).as('seven')])
    .where('id', '=', v.id)
    .where('status', '=', v.status)
    .where('message_count', '>=', 1)
  if (v.subject !== undefined) q = q.where('subject', '=', v.subject)
  return q
})

inEachStorageMode(t, 'prebuilt statements', async (t, mode) => {
  const { svc, customerSession } = await sessionsFixture(t, mode)
  const [a, b] = [await customerSession(), await customerSession({ content: 'Where is my parcel?' })]
  let seen = 0
  const db = svc.db.withPlugin({
    transformQuery: (args) => {
      seen++
      return args.node
    },
    transformResult: async (args) => args.result,
  })
  const before = builds

  const first = await sessionsOf(db, { id: a.id, status: 'active' })
  t.same(first.rows, [{ id: a.id, status: 'active', asked: a.id, seven: 7 }], 'the values of the first run')
  const second = await sessionsOf(db, { id: b.id, status: 'active' })
  t.same(second.rows, [{ id: b.id, status: 'active', asked: b.id, seven: 7 }], "another run's values, not the first's")
  t.same((await sessionsOf(db, { id: a.id, status: 'closed' })).rows, [], 'a value that matches nothing: no row')
  t.equal(builds - before, 1, 'built once for this dialect and shape')

  const narrowed = { id: b.id, status: 'active', subject: 'Where is my parcel?' }
  t.same(
    (await sessionsOf(db, narrowed, 'subject')).rows.map((r) => r.id),
    [b.id],
    'another shape, its own SQL',
  )
  t.same((await sessionsOf(db, { ...narrowed, subject: 'else' }, 'subject')).rows, [], "that shape's new values")
  t.equal(builds - before, 2, 'each shape built once')
  t.equal(seen, 5, "the database's plugins saw every run")
})
