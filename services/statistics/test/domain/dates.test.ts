import t from 'tap'
import { checkRange, MAX_RANGE_DAYS, nextDay, parseDay, quarterHourOf } from '../../src/domain/dates.ts'

t.test('parseDay: calendar days only', async (t) => {
  t.ok(parseDay('2024-02-29').ok, 'a leap day')
  t.match(parseDay('2026-02-29'), { ok: false, reason: /not a calendar day/ })
  t.match(parseDay('2026-13-01'), { ok: false })
  t.match(parseDay('2026-1-01'), { ok: false, reason: /YYYY-MM-DD/ })
  t.match(parseDay('2026-01-01T00:00'), { ok: false })
})

t.test('checkRange: inclusive days, order, at most 366 days, names the parameter', async (t) => {
  t.match(checkRange('2026-01-30', '2026-02-02'), {
    ok: true,
    start: '2026-01-30T00:00:00.000Z',
    end: '2026-02-03T00:00:00.000Z',
    days: ['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02'],
  })
  t.match(checkRange('x', '2026-01-01'), { ok: false, param: 'start_date', kind: 'date' })
  t.match(checkRange('2026-01-01', '2026-02-30'), { ok: false, param: 'end_date', kind: 'date' })
  t.match(checkRange('2026-01-02', '2026-01-01'), { ok: false, param: 'end_date', kind: 'range' })
  const full = checkRange('2024-01-01', '2024-12-31') // a leap year: 366 days
  t.equal(full.ok && full.days.length, MAX_RANGE_DAYS)
  t.match(checkRange('2025-01-01', '2026-01-02'), { ok: false, kind: 'range', reason: /366/ })
})

t.test('days and quarter hours in UTC', async (t) => {
  t.equal(nextDay('2024-02-28'), '2024-02-29')
  t.equal(nextDay('2026-12-31'), '2027-01-01')
  t.equal(quarterHourOf('2026-11-24T10:44:59.999Z'), '2026-11-24T10:30')
  t.equal(quarterHourOf('2026-11-24T23:59:59Z'), '2026-11-24T23:45')
  // an offset timestamp lands in its UTC quarter hour
  t.equal(quarterHourOf('2026-11-25T01:05:00+02:00'), '2026-11-24T23:00')
})
