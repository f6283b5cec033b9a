/**
 * A reader of the Prometheus text exposition format (0.0.4), as far as the health page needs it: the samples
 * (`name{label="value",…} number [timestamp]`), comments and blank lines skipped. Written here because no parser
 * is in the dependency tree and the one on npm (parse-prometheus-text-format) has not been released since 2019;
 * the grammar for samples is small: https://prometheus.io/docs/instrumenting/exposition_formats/#text-format-details
 */

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/

/**
 * A sample's value as Go's ParseFloat reads it (Prometheus' own parser): a decimal or the special values in any case
 * — prom-client writes `Nan` for a summary with no observations yet (the event-loop lag's mean before its first tick).
 */
function parseValue(text: string): number {
  switch (text.toLowerCase()) {
    case '+inf':
    case 'inf':
    case '+infinity':
    case 'infinity':
      return Number.POSITIVE_INFINITY
    case '-inf':
    case '-infinity':
      return Number.NEGATIVE_INFINITY
    case 'nan':
      return Number.NaN
    default: {
      const n = text.trim() === '' ? Number.NaN : Number(text)
      if (Number.isNaN(n)) throw new Error(`not a sample value: ${text.slice(0, 40)}`)
      return n
    }
  }
}

/** Label values escape `\\`, `\"` and `\n`; anything else after a backslash stands for itself. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {}
  let i = start
  for (;;) {
    while (line[i] === ' ' || line[i] === ',') i++
    if (line[i] === '}') return { labels, end: i + 1 }
    const name = LABEL_NAME.exec(line.slice(i))?.[0]
    if (!name) throw new Error(`bad label name at ${i}`)
    i += name.length
    while (line[i] === ' ') i++
    if (line[i++] !== '=') throw new Error(`bad label ${name}`)
    while (line[i] === ' ') i++
    if (line[i++] !== '"') throw new Error(`bad label ${name}`)
    let value = ''
    for (;;) {
      const c = line[i]
      if (c === undefined) throw new Error(`unterminated label ${name}`)
      i++
      if (c === '"') break
      if (c === '\\') {
        const next = line[i++]
        value += next === 'n' ? '\n' : (next ?? '')
      } else value += c
    }
    labels[name] = value
  }
}

/** Every sample of an exposition; throws on a line that is not one (the caller reports the scrape as unreadable). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const name = NAME.exec(line)?.[0]
    if (!name) throw new Error(`not a sample: ${line.slice(0, 40)}`)
    let rest = name.length
    let labels: Record<string, string> = {}
    if (line[rest] === '{') {
      const parsed = parseLabels(line, rest + 1)
      labels = parsed.labels
      rest = parsed.end
    }
    const [value] = line.slice(rest).trim().split(/\s+/)
    samples.push({ name, labels, value: parseValue(value ?? '') })
  }
  return samples
}
