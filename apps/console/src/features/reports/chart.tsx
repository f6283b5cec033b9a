/**
 * uPlot charts: per-day lines and per-key bars (canvas; the table beside each carries the same numbers for screen
 * readers, so a chart is one labelled image). Colours from the theme's CSS variables, read when drawn, so light and
 * dark themes each draw in their own tokens.
 */
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

export interface Series {
  label: string
  values: number[]
  /** a CSS variable of the theme */
  color: string
}

const HEIGHT = 220
const cssVar = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(name).trim() || 'currentColor'

/** Keeps a drawn plot as wide as its box; the returned cleanup destroys it. */
function attach(el: HTMLDivElement, plot: uPlot): () => void {
  const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: HEIGHT }))
  resize.observe(el)
  return () => {
    resize.disconnect()
    plot.destroy()
  }
}

const DAY = 86_400
const DAY_INCRS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY]
const dayLabel = (ts: number) => new Date(ts * 1000).toISOString().slice(5, 10)

const axisOf = (el: Element) => {
  const grid = cssVar(el, '--border')
  return { stroke: cssVar(el, '--fg-muted'), grid: { stroke: grid }, ticks: { stroke: grid } }
}

export function DayChart({ days, series, label }: { days: string[]; series: Series[]; label: string }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
    const axis = axisOf(el)
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: cssVar(el, s.color), width: 2 }))],
        // a tick per day at most (never 12-hour ones), labelled as the table's dates are, without the year
        axes: [{ ...axis, incrs: DAY_INCRS, values: (_u, splits) => splits.map(dayLabel) }, axis],
        legend: { show: false },
        cursor: { show: true },
      },
      [xs, ...series.map((s) => s.values)],
      el,
    )
    return attach(el, plot)
  }, [days, series])
  return (
    <div className="reports-chart-box">
      <div ref={box} className="reports-chart" role="img" aria-label={label} />
      {series.length > 1 ? (
        // which line is which, for the eye (the label and the table say it for assistive technology)
        <ul className="reports-legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.label}>
              <span className="reports-swatch" style={{ background: `var(${s.color})` }} />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** Counts per key (category, priority, source) as bars, keys along the x axis in the order given. */
export function BarChart({ keys, counts, label }: { keys: string[]; counts: number[]; label: string }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const axis = axisOf(el)
    const fill = cssVar(el, '--accent')
    const bars = uPlot.paths.bars?.({ size: [0.6, 64] })
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: HEIGHT,
        scales: {
          x: { time: false, range: () => [-0.5, keys.length - 0.5] },
          y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
        },
        series: [{}, { label, fill, stroke: fill, paths: bars, points: { show: false } }],
        axes: [
          { ...axis, splits: () => keys.map((_, i) => i), values: (_u, splits) => splits.map((i) => keys[i] ?? '') },
          axis,
        ],
        legend: { show: false },
        cursor: { show: false },
      },
      [keys.map((_, i) => i), counts],
      el,
    )
    return attach(el, plot)
  }, [keys, counts, label])
  return <div ref={box} className="reports-chart" role="img" aria-label={label} />
}
