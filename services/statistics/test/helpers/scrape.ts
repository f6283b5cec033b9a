import type { ServiceApp } from '@switchboard/platform'

/** `/metrics` of an app, as Prometheus reads it. */
export async function scrape(app: ServiceApp): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`)
  return res.body
}

/** The value of the series `name` carrying every one of `labels` (others may be present), or undefined. */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const series = line.slice(0, line.lastIndexOf(' '))
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1))
    }
  }
  return undefined
}
