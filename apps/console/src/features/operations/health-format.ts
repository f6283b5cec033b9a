/** How the health page writes a replica's figures: whole units an operator reads at a glance, in the locale's digits. */
import type { I18nValue } from '../../lib/i18n.tsx'

type Fmt = Pick<I18nValue, 't' | 'formatNumber'>

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

export function mebibytes({ t, formatNumber }: Fmt, bytes: number | null): string {
  return bytes === null ? '—' : t('ops.fig.mib', { n: formatNumber(round(bytes / 1_048_576, 1)) })
}

export function millis({ t, formatNumber }: Fmt, seconds: number | null): string {
  return seconds === null ? '—' : t('ops.fig.ms', { n: formatNumber(round(seconds * 1000, 1)) })
}

/** a total, and its rate per second since the gateway's previous look when there was one */
export function countWithRate({ t, formatNumber }: Fmt, total: number, perSecond: number | null): string {
  const n = formatNumber(total)
  return perSecond === null ? n : t('ops.fig.rate', { n, rate: formatNumber(round(perSecond, 2)) })
}

export function uptime({ t }: Fmt, seconds: number | null): string {
  if (seconds === null) return '—'
  const d = Math.floor(seconds / 86_400)
  const h = Math.floor((seconds % 86_400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  if (d > 0) return t('ops.up.dh', { d, h })
  if (h > 0) return t('ops.up.hm', { h, m })
  if (m > 0) return t('ops.up.m', { m })
  return t('ops.up.s', { s: Math.floor(seconds) })
}
