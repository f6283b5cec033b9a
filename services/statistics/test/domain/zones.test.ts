import t from 'tap'
import { dayIn, dayStartIn, isTimeZone } from '../../src/domain/zones.ts'

t.test('known zones only', async (t) => {
  t.ok(isTimeZone('UTC'))
  t.ok(isTimeZone('Asia/Kolkata'))
  t.notOk(isTimeZone('Mars/Olympus'))
  t.notOk(isTimeZone('+05:30 or so'))
})

t.test('the day an instant falls on, and the instant a day starts', async (t) => {
  t.equal(dayStartIn('2026-11-24', 'UTC'), '2026-11-24T00:00:00.000Z')
  t.equal(dayStartIn('2026-11-24', 'Asia/Kolkata'), '2026-11-23T18:30:00.000Z', 'a half-hour offset')
  t.equal(dayIn('2026-11-23T18:29:59.999Z', 'Asia/Kolkata'), '2026-11-23')
  t.equal(dayIn('2026-11-23T18:30:00.000Z', 'Asia/Kolkata'), '2026-11-24')
  t.equal(dayStartIn('2026-11-24', 'America/St_Johns'), '2026-11-24T03:30:00.000Z')
  // New York: the day clocks go forward starts at EST midnight, the next one at EDT midnight
  t.equal(dayStartIn('2026-03-08', 'America/New_York'), '2026-03-08T05:00:00.000Z')
  t.equal(dayStartIn('2026-03-09', 'America/New_York'), '2026-03-09T04:00:00.000Z')
  t.equal(dayStartIn('2026-11-01', 'America/New_York'), '2026-11-01T04:00:00.000Z')
  t.equal(dayStartIn('2026-11-02', 'America/New_York'), '2026-11-02T05:00:00.000Z')
  t.equal(dayStartIn('2026-06-01', 'Pacific/Kiritimati'), '2026-05-31T10:00:00.000Z', 'UTC+14')
})
