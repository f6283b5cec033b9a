import t from 'tap'
import {
  addBusinessMinutes,
  businessMinutesBetween,
  type Calendar,
  calendarProblem,
  DEFAULT_CALENDAR,
  instantOf,
  subtractBusinessMinutes,
} from '../../src/domain/business-hours.ts'

const at = (iso: string) => new Date(iso)
const iso = (d: Date) => d.toISOString()
const weekdays = (tz: string, from = '09:00', to = '17:00'): Calendar => ({
  time_zone: tz,
  weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [[from, to]]])),
})
const allDay = (tz: string): Calendar => ({
  time_zone: tz,
  weekly: Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [['00:00', '24:00']]])),
})

t.test('wall clock to instant, across DST gaps and overlaps (Temporal "compatible")', async (t) => {
  const wall = (s: string) => Date.parse(`${s}Z`)
  // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT
  t.equal(iso(new Date(instantOf(wall('2026-03-08T01:30:00'), 'America/New_York'))), '2026-03-08T06:30:00.000Z')
  t.equal(
    iso(new Date(instantOf(wall('2026-03-08T02:30:00'), 'America/New_York'))),
    '2026-03-08T07:30:00.000Z',
    'a time in the gap moves forward by the gap (03:30 EDT)',
  )
  t.equal(iso(new Date(instantOf(wall('2026-03-08T03:30:00'), 'America/New_York'))), '2026-03-08T07:30:00.000Z')
  // Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice
  t.equal(
    iso(new Date(instantOf(wall('2026-10-25T02:30:00'), 'Europe/Berlin'))),
    '2026-10-25T00:30:00.000Z',
    'the first of the two',
  )
  t.equal(iso(new Date(instantOf(wall('2026-10-25T12:00:00'), 'Europe/Berlin'))), '2026-10-25T11:00:00.000Z')
  t.equal(iso(new Date(instantOf(wall('2026-07-01T09:00:00'), 'Asia/Kolkata'))), '2026-07-01T03:30:00.000Z')
})

t.test('adding business minutes within a day, over nights and weekends', async (t) => {
  const cal = weekdays('UTC')
  // Monday 2026-11-23
  t.equal(iso(addBusinessMinutes(at('2026-11-23T10:00:00Z'), 60, cal)), '2026-11-23T11:00:00.000Z')
  t.equal(iso(addBusinessMinutes(at('2026-11-23T16:30:00Z'), 60, cal)), '2026-11-24T09:30:00.000Z', 'overnight')
  t.equal(iso(addBusinessMinutes(at('2026-11-23T06:00:00Z'), 30, cal)), '2026-11-23T09:30:00.000Z', 'before opening')
  t.equal(iso(addBusinessMinutes(at('2026-11-27T16:00:00Z'), 120, cal)), '2026-11-30T10:00:00.000Z', 'Friday → Monday')
  t.equal(iso(addBusinessMinutes(at('2026-11-28T12:00:00Z'), 10, cal)), '2026-11-30T09:10:00.000Z', 'from Saturday')
  t.equal(iso(addBusinessMinutes(at('2026-11-23T10:00:00Z'), 5 * 8 * 60, cal)), '2026-11-30T10:00:00.000Z', 'a week')
  const split: Calendar = {
    time_zone: 'UTC',
    weekly: {
      mon: [
        ['13:00', '17:00'],
        ['08:00', '12:00'],
      ],
    },
  }
  t.equal(iso(addBusinessMinutes(at('2026-11-23T11:00:00Z'), 120, split)), '2026-11-23T14:00:00.000Z', 'over lunch')
})

t.test('business time follows the local clock across DST', async (t) => {
  // New York weekdays 09:00–17:00: Friday 2026-03-06 16:00 EST (21:00Z) + 2 h = Monday 10:00 EDT (14:00Z)
  const ny = weekdays('America/New_York')
  t.equal(iso(addBusinessMinutes(at('2026-03-06T21:00:00Z'), 120, ny)), '2026-03-09T14:00:00.000Z')
  // and back in autumn: Friday 2026-10-30 16:00 EDT (20:00Z) + 2 h = Monday 10:00 EST (15:00Z)
  t.equal(iso(addBusinessMinutes(at('2026-10-30T20:00:00Z'), 120, ny)), '2026-11-02T15:00:00.000Z')
  // Berlin, always open: the spring-forward Sunday has 23 hours, the autumn one 25
  const berlin = allDay('Europe/Berlin')
  t.equal(businessMinutesBetween(at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z'), berlin), 23 * 60)
  t.equal(businessMinutesBetween(at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z'), berlin), 25 * 60)
  // Berlin 00:00–24:00 on Sundays only: a day's worth of business time on 2026-03-29 is 23 real hours
  const sundays: Calendar = { time_zone: 'Europe/Berlin', weekly: { sun: [['00:00', '24:00']] } }
  t.equal(iso(addBusinessMinutes(at('2026-03-28T23:00:00Z'), 23 * 60, sundays)), '2026-03-29T22:00:00.000Z')
  t.equal(
    iso(addBusinessMinutes(at('2026-03-28T23:00:00Z'), 23 * 60 + 1, sundays)),
    '2026-04-04T22:01:00.000Z',
    'the next minute is next Sunday',
  )
  // an opening that starts inside the gap (02:30 on 2026-03-08 in New York) opens at 03:30 EDT
  const gap: Calendar = { time_zone: 'America/New_York', weekly: { sun: [['02:30', '04:00']] } }
  t.equal(iso(addBusinessMinutes(at('2026-03-08T00:00:00Z'), 15, gap)), '2026-03-08T07:45:00.000Z')
})

t.test('subtracting is the inverse: the cutoff the monitor compares created_at with', async (t) => {
  const calendars = [
    weekdays('UTC'),
    weekdays('America/New_York'),
    allDay('Europe/Berlin'),
    weekdays('Asia/Kolkata', '10:00', '18:30'),
  ]
  const starts = ['2026-03-06T20:17:00Z', '2026-10-30T19:59:00Z', '2026-03-28T22:30:00Z', '2026-11-23T12:00:00Z']
  for (const cal of calendars) {
    for (const start of starts) {
      for (const minutes of [1, 45, 480, 2000]) {
        const deadline = addBusinessMinutes(at(start), minutes, cal)
        const cutoff = subtractBusinessMinutes(deadline, minutes, cal)
        t.ok(cutoff.getTime() >= at(start).getTime(), `${cal.time_zone} ${start} +${minutes}: cutoff not before start`)
        t.equal(iso(addBusinessMinutes(cutoff, minutes, cal)), iso(deadline), 'same deadline from the cutoff')
        t.equal(Math.round(businessMinutesBetween(at(start), deadline, cal)), minutes, 'elapsed = minutes')
      }
    }
  }
})

t.test('calendar checks', async (t) => {
  t.equal(calendarProblem(DEFAULT_CALENDAR), undefined)
  t.equal(calendarProblem(weekdays('Europe/Berlin')), undefined)
  t.match(calendarProblem({ time_zone: 'Nowhere/Else', weekly: { mon: [['09:00', '17:00']] } }), /time_zone/)
  t.match(calendarProblem({ time_zone: 'UTC', weekly: {} }), /at least one/)
  t.match(calendarProblem({ time_zone: 'UTC', weekly: { mon: [['10:00', '09:00']] } }), /before end/)
  t.match(calendarProblem({ time_zone: 'UTC', weekly: { mon: [['24:00', '24:00']] } }), /before end/)
  t.match(
    calendarProblem({
      time_zone: 'UTC',
      weekly: {
        mon: [
          ['09:00', '12:00'],
          ['11:59', '13:00'],
        ],
      },
    }),
    /overlap/,
  )
  t.equal(
    calendarProblem({
      time_zone: 'UTC',
      weekly: {
        mon: [
          ['09:00', '12:00'],
          ['12:00', '13:00'],
        ],
      },
    }),
    undefined,
  )
})
