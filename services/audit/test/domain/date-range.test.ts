import t from 'tap'
import { parseDateRange } from '../../src/domain/date-range.ts'

t.test('dates are UTC days, the end date counts whole', async (t) => {
  t.same(parseDateRange('2026-03-01', '2026-03-02'), {
    ok: true,
    range: { start: '2026-03-01T00:00:00.000Z', end: { at: '2026-03-03T00:00:00.000Z', inclusive: false } },
  })
  t.same(parseDateRange('2026-03-01', '2026-03-01'), {
    ok: true,
    range: { start: '2026-03-01T00:00:00.000Z', end: { at: '2026-03-02T00:00:00.000Z', inclusive: false } },
  })
  t.same(parseDateRange(undefined, undefined), { ok: true, range: {} })
})

t.test('RFC 3339 instants, offsets normalised to UTC, the end inclusive', async (t) => {
  t.same(parseDateRange('2026-03-01T10:00:00+02:00', '2026-03-01T12:30:00.5Z'), {
    ok: true,
    range: { start: '2026-03-01T08:00:00.000Z', end: { at: '2026-03-01T12:30:00.500Z', inclusive: true } },
  })
  t.same(parseDateRange('2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z').ok, true, 'a zero-length range is fine')
  t.same(parseDateRange('2026-03-01T10:00:00Z', '2026-03-01').ok, true, 'the end day covers a start inside it')
})

t.test('malformed dates name the parameter', async (t) => {
  for (const bad of [
    '2026-02-30',
    '2026-13-01',
    '03/01/2026',
    '2026-03-01T10:00',
    'yesterday',
    '2026-03-01T25:00:00Z',
  ]) {
    t.match(parseDateRange(bad), { ok: false, reason: 'date', message: /^start_date/ }, bad)
    t.match(parseDateRange(undefined, bad), { ok: false, reason: 'date', message: /^end_date/ }, bad)
  }
})

t.test('an end before the start is refused', async (t) => {
  t.same(parseDateRange('2026-03-02', '2026-03-01'), {
    ok: false,
    reason: 'range',
    message: 'end_date is before start_date',
  })
  t.match(parseDateRange('2026-03-01T10:00:00Z', '2026-03-01T09:59:59Z'), { ok: false, reason: 'range' })
  t.match(parseDateRange('2026-03-02T00:00:00Z', '2026-03-01'), { ok: false, reason: 'range' })
})
