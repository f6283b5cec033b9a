import t from 'tap'
import {
  countsOf,
  listBound,
  scheduleWindow,
  shiftInstant,
  toInstant,
  utcDay,
  windowProblem,
} from '../../src/domain/shift-rules.ts'

t.test('toInstant normalises to UTC milliseconds', async (t) => {
  t.equal(toInstant('2026-03-01T22:00:00+08:00'), '2026-03-01T14:00:00.000Z')
  t.equal(toInstant('2026-03-01T14:00:00.123456Z'), '2026-03-01T14:00:00.123Z')
  t.equal(toInstant('nonsense'), undefined)
})

t.test('windowProblem blames the field the caller sent', async (t) => {
  const a = '2026-03-01T10:00:00.000Z'
  const b = '2026-03-01T12:00:00.000Z'
  t.equal(windowProblem(a, b), undefined)
  t.match(windowProblem(a, a), { field: 'end_time' }, 'an empty window')
  t.match(windowProblem(b, a, { start: true, end: true }), { field: 'end_time' })
  t.match(windowProblem(b, a, { start: true }), { field: 'start_time', message: 'must be before end_time' })
  t.match(windowProblem(b, a, { end: true }), { field: 'end_time', message: 'must be after start_time' })
})

t.test('listBound: whole UTC days, instants, nonsense', async (t) => {
  t.same(listBound('2026-05-02', 'from'), { at: '2026-05-02T00:00:00.000Z', exclusive: false })
  t.same(listBound('2026-05-02', 'to'), { at: '2026-05-03T00:00:00.000Z', exclusive: true })
  t.same(listBound('2026-12-31', 'to'), { at: '2027-01-01T00:00:00.000Z', exclusive: true })
  t.same(listBound('2026-05-02T08:00:00+02:00', 'to'), { at: '2026-05-02T06:00:00.000Z', exclusive: false })
  t.same(listBound('2026-02-30', 'from'), { problem: 'must be YYYY-MM-DD or RFC 3339' }, 'no rolling over into March')
  t.same(listBound('2026-05-02Tnoon', 'from'), { problem: 'must be YYYY-MM-DD or RFC 3339' })
})

t.test('instants lie in the years 1970 to 9998, on both engines alike', async (t) => {
  const years = { problem: 'must lie in the years 1970 to 9998 (UTC)' }
  t.same(listBound('0000-01-01', 'from'), years, 'PostgreSQL has no year 0')
  t.same(listBound('9999-12-31', 'to'), years, 'its exclusive end would be in year 10000')
  t.same(listBound('1969-12-31T23:59:59Z', 'from'), years)
  t.same(listBound('1970-01-01T00:30:00+01:00', 'from'), years, 'the UTC year counts')
  t.same(listBound('9998-12-31', 'to'), { at: '9999-01-01T00:00:00.000Z', exclusive: true }, 'the last day allowed')
  t.same(listBound('1970-01-01', 'from'), { at: '1970-01-01T00:00:00.000Z', exclusive: false })
  t.same(shiftInstant('0000-01-01T00:00:00Z'), years)
  t.same(shiftInstant('9999-01-01T00:00:00Z'), years)
  t.same(shiftInstant('2026-03-01T22:00:00+08:00'), { at: '2026-03-01T14:00:00.000Z' })
  t.same(shiftInstant('nonsense'), { problem: 'must be an RFC 3339 date-time' })
})

t.test('utcDay, scheduleWindow, countsOf', async (t) => {
  t.same(utcDay(new Date('2026-05-02T23:59:59.999Z')), {
    start: '2026-05-02T00:00:00.000Z',
    end: '2026-05-03T00:00:00.000Z',
  })
  t.same(scheduleWindow('2026-05-02T12:00:00.000Z'), {
    start: '2026-05-02T00:00:00.000Z',
    end: '2026-05-03T00:00:00.000Z',
  })
  t.same(countsOf(['a', 'b'], [{ key: 'b', n: '2' }]), { a: 0, b: 2 })
})
