/**
 * A person's shifts as a week calendar (Monday to Sunday in the browser's time zone): each day a column on a 24-hour
 * scale, each shift a block at its time (a night shift past midnight drawn to midnight, its times in full), the
 * previous/next week, and — for holders of shift.write, which the API demands — "Add shift" (day, start, end, type)
 * and a remove button per shift. What is shown is re-read from `/api/shifts` after each change.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { createShift, deleteShift, listShifts, SHIFT_TYPES, type Shift, shiftKeys } from './shifts-api.ts'
import { addDays, dayKey, placement, sameDay, shiftWindow, weekDays, weekStart } from './shifts-week.ts'
import './messages.ts'
import './shifts.css'

function useFormats() {
  const { locale } = useI18n()
  return {
    weekday: new Intl.DateTimeFormat(locale, { weekday: 'long' }),
    date: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
    time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  }
}

function AddShift({ userId, days, onDone }: { userId: string; days: Date[]; onDone(): Promise<void> }) {
  const { t } = useI18n()
  const f = useFormats()
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const day = days.find((d) => dayKey(d) === data.get('day')) ?? days[0]!
    const { from, to } = shiftWindow(day, String(data.get('start')), String(data.get('end')))
    setBusy(true)
    setError(null)
    try {
      await createShift({
        agent_id: userId,
        shift_type: String(data.get('type')),
        start_time: from.toISOString(),
        end_time: to.toISOString(),
      })
      await onDone()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form aria-label={t('people.shifts.add')} className="shifts-add" onSubmit={submit}>
      <label>
        {t('people.shifts.day')}
        <select name="day">
          {days.map((d) => (
            <option key={dayKey(d)} value={dayKey(d)}>
              {`${f.weekday.format(d)} ${f.date.format(d)}`}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('people.shifts.start')}
        <input name="start" type="time" required defaultValue="09:00" />
      </label>
      <label>
        {t('people.shifts.end')}
        <input name="end" type="time" required defaultValue="17:00" />
      </label>
      <label>
        {t('people.shifts.type')}
        <select name="type">
          {SHIFT_TYPES.map((s) => (
            <option key={s} value={s}>
              {t(`people.shifts.type.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        {t('people.shifts.add')}
      </button>
      <ErrorText error={error} />
    </form>
  )
}

function ShiftBlock({ shift, canWrite, onRemove }: { shift: Shift; canWrite: boolean; onRemove(): void }) {
  const { t } = useI18n()
  const f = useFormats()
  const start = new Date(shift.start_time)
  const end = new Date(shift.end_time)
  const { top, height } = placement(start, end)
  const span = `${f.time.format(start)}–${f.time.format(end)}`
  return (
    <li className={`shift shift-${shift.shift_type}`} style={{ top: `${top}%`, height: `${height}%` }}>
      <span>
        {span} {t(`people.shifts.type.${shift.shift_type}`)}
      </span>
      {canWrite && (
        <button
          type="button"
          aria-label={t('people.shifts.remove', { day: f.weekday.format(start), span })}
          onClick={onRemove}
        >
          ×
        </button>
      )}
    </li>
  )
}

export function ShiftWeek({ userId, name }: { userId: string; name: string }) {
  const { t } = useI18n()
  const f = useFormats()
  const access = useAccess()
  const client = useQueryClient()
  const [start, setStart] = useState(() => weekStart(new Date()))
  const [error, setError] = useState<unknown>(null)
  const days = weekDays(start)
  const shifts = useQuery({
    queryKey: shiftKeys.week(userId, start.toISOString()),
    queryFn: () => listShifts(userId, start, addDays(start, 7)),
  })
  const canWrite = access.has('shift.write')
  const reread = () => client.invalidateQueries({ queryKey: ['settings-people', 'shifts', userId] })
  async function remove(id: string) {
    setError(null)
    try {
      await deleteShift(id)
      await reread()
    } catch (err) {
      setError(err)
    }
  }
  return (
    <section aria-labelledby={`shifts-${userId}`} className="shifts">
      <h3 id={`shifts-${userId}`}>{t('people.shifts.title', { name })}</h3>
      <div className="shifts-nav">
        <button type="button" onClick={() => setStart(addDays(start, -7))}>
          {t('people.shifts.prev')}
        </button>
        <p aria-live="polite">{t('people.shifts.week', { date: f.date.format(start) })}</p>
        <button type="button" onClick={() => setStart(addDays(start, 7))}>
          {t('people.shifts.next')}
        </button>
      </div>
      {shifts.isPending && <Loading label={t('people.shifts.loading')} />}
      <ErrorText error={shifts.error ?? error} />
      <table className="shifts-week" aria-label={t('people.shifts.calendar', { name })}>
        <thead>
          <tr>
            {days.map((d) => (
              <th key={dayKey(d)} scope="col">
                {f.weekday.format(d)} <span className="shifts-date">{f.date.format(d)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {days.map((d) => (
              <td key={dayKey(d)}>
                <ul aria-label={f.weekday.format(d)} className="shifts-day">
                  {(shifts.data ?? [])
                    .filter((s) => sameDay(new Date(s.start_time), d))
                    .map((s) => (
                      <ShiftBlock key={s.id} shift={s} canWrite={canWrite} onRemove={() => void remove(s.id)} />
                    ))}
                </ul>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {canWrite && <AddShift userId={userId} days={days} onDone={reread} />}
    </section>
  )
}
