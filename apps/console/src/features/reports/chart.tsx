/**
 * A uPlot line chart of per-day series (canvas; the table beside it carries the same numbers for screen readers, so
 * the chart is one labelled image). Colours from the theme's CSS variables, read when drawn.
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

const cssVar = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(name).trim() || 'currentColor'

export function DayChart({ days, series, label }: { days: string[]; series: Series[]; label: string }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
    const fg = cssVar(el, '--fg-muted')
    const grid = cssVar(el, '--border')
    const axis = { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid } }
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 220,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: cssVar(el, s.color), width: 2 }))],
        axes: [axis, axis],
        legend: { show: false },
        cursor: { show: true },
      },
      [xs, ...series.map((s) => s.values)],
      el,
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 220 }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [days, series])
  return <div ref={box} className="reports-chart" role="img" aria-label={label} />
}
