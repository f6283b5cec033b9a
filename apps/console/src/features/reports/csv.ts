/**
 * CSV of a table as shown (RFC 4180: CRLF lines, fields with a comma, quote or line break quoted, quotes doubled).
 * A text cell starting with = + - @ (a spreadsheet would run it as a formula) is prefixed with '.
 */
export type Cell = string | number

function field(value: Cell): string {
  if (typeof value === 'number') return String(value)
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return `${[header, ...rows].map((r) => r.map(field).join(',')).join('\r\n')}\r\n`
}

/** Saves text as a file from a blob URL (no request: the data is the one shown). */
export function saveCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
