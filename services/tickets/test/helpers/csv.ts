/** The fields of one CSV line (RFC 4180 quoting, no line breaks inside), to read an exported cell back. */
export const csvFields = (line: string) =>
  [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!,
  )

/** An export as header names and one record per line, each keyed by column. */
export function parseCsv(text: string): { header: string[]; rows: Array<Record<string, string>> } {
  const lines = text.split('\n').filter((l) => l.length > 0)
  const header = csvFields(lines[0] ?? '')
  const rows = lines.slice(1).map((l) => {
    const cells = csvFields(l)
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']))
  })
  return { header, rows }
}
