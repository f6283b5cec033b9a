/**
 * The workspace's business hours (the calendar SLA configs with "business hours only" count in): an IANA time zone
 * and opening ranges per weekday, several a day; a day without ranges is closed. Saved as one PUT.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useMemo, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { type BusinessHours, keys, readHours, WEEKDAYS, type Weekday, writeHours } from './api.ts'

type Week = Record<Weekday, [string, string][]>
const CLOCK = '([01][0-9]|2[0-3]):[0-5][0-9]|24:00'

function zones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return [...new Set(['UTC', current, ...all])]
}

function HoursForm({ hours, canWrite, onSaved }: { hours: BusinessHours; canWrite: boolean; onSaved(): void }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [zone, setZone] = useState(hours.time_zone)
  const [week, setWeek] = useState<Week>(
    () => Object.fromEntries(WEEKDAYS.map((d) => [d, (hours.weekly[d] ?? []).map((r) => [...r])])) as Week,
  )
  const [error, setError] = useState<unknown>(null)
  const options = useMemo(() => zones(hours.time_zone), [hours.time_zone])
  const change = (day: Weekday, next: [string, string][]) => setWeek((w) => ({ ...w, [day]: next }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const weekly = Object.fromEntries(WEEKDAYS.filter((d) => week[d].length > 0).map((d) => [d, week[d]]))
      await writeHours({ time_zone: zone, weekly })
      onSaved()
      await client.invalidateQueries({ queryKey: keys.hours })
    } catch (err) {
      setError(err)
    }
  }

  return (
    <form aria-label={t('svc.hours')} onSubmit={submit} className="svc-form">
      {hours.is_default && <p className="svc-note">{t('svc.hours.default')}</p>}
      <label>
        {t('svc.hours.zone')}
        <select value={zone} disabled={!canWrite} onChange={(e) => setZone(e.target.value)}>
          {options.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </label>
      <div className="svc-week">
        {WEEKDAYS.map((day) => {
          const name = t(`svc.day.${day}`)
          const ranges = week[day]
          return (
            <fieldset key={day} className="svc-day">
              <legend>{name}</legend>
              {ranges.length === 0 && <span className="svc-note">{t('svc.hours.closed')}</span>}
              {ranges.map(([from, to], i) => {
                const n = i + 1
                const set = (k: 0 | 1, v: string) =>
                  change(
                    day,
                    ranges.map((r, j) => (j === i ? ((k === 0 ? [v, r[1]] : [r[0], v]) as [string, string]) : r)),
                  )
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a range has no identity but its place in the day
                  <div key={i} className="svc-range">
                    <label>
                      {t('svc.hours.from', { day: name, n })}
                      <input
                        value={from}
                        required
                        pattern={CLOCK}
                        placeholder="09:00"
                        inputMode="numeric"
                        disabled={!canWrite}
                        onChange={(e) => set(0, e.target.value)}
                      />
                    </label>
                    <label>
                      {t('svc.hours.to', { day: name, n })}
                      <input
                        value={to}
                        required
                        pattern={CLOCK}
                        placeholder="17:00"
                        inputMode="numeric"
                        disabled={!canWrite}
                        onChange={(e) => set(1, e.target.value)}
                      />
                    </label>
                    {canWrite && (
                      <button
                        type="button"
                        onClick={() =>
                          change(
                            day,
                            ranges.filter((_, j) => j !== i),
                          )
                        }
                      >
                        {t('svc.hours.remove', { day: name, n })}
                      </button>
                    )}
                  </div>
                )
              })}
              {canWrite && (
                <button type="button" onClick={() => change(day, [...ranges, ['09:00', '17:00']])}>
                  {t('svc.hours.add', { day: name })}
                </button>
              )}
            </fieldset>
          )
        })}
      </div>
      {canWrite && <button type="submit">{t('svc.hours.save')}</button>}
      {error !== null && <ErrorText error={error} />}
    </form>
  )
}

export function BusinessHoursSection() {
  const { t } = useI18n()
  const canWrite = useAccess().has('sla.write')
  const hours = useQuery({ queryKey: keys.hours, queryFn: ({ signal }) => readHours(signal) })
  // here, not in the form: a save re-reads the hours and the form starts again from them
  const [saved, setSaved] = useState(false)
  return (
    <section aria-labelledby="svc-hours" className="svc-section">
      <h2 id="svc-hours">{t('svc.hours')}</h2>
      {hours.isPending ? (
        <Loading label={t('svc.loading')} />
      ) : hours.error ? (
        <ErrorText error={hours.error} />
      ) : (
        <HoursForm
          key={hours.data.updated_at ?? 'default'}
          hours={hours.data}
          canWrite={canWrite}
          onSaved={() => setSaved(true)}
        />
      )}
      {saved && <p role="status">{t('svc.hours.saved')}</p>}
    </section>
  )
}
