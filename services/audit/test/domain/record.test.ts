import { AUDIT_RECORDED_TYPE, type AuditRecordData, type Envelope } from '@switchboard/contracts'
import t from 'tap'
import { auditCsv, CSV_COLUMNS, csvRow } from '../../src/domain/csv.ts'
import { recordFromEnvelope } from '../../src/domain/record.ts'
import { retentionCutoff } from '../../src/domain/retention.ts'

const data: AuditRecordData = {
  actor_user_id: 'u1',
  principal_kind: 'agent',
  action: 'tickets.update',
  resource_type: 'tickets',
  resource_id: 't1',
  route: '/api/tickets/:id',
  method: 'PUT',
  status_code: 200,
  success: true,
  request_id: 'r1',
  client_ip: '127.0.0.1',
  user_agent: '=HYPERLINK("x")',
  request_json: { title: 'x', nested: { api_key: 'k', Refresh_Token: 't' } },
  before_json: { title: 'a' },
  after_json: { title: 'x', password: 'p' },
}
const envelope: Envelope<unknown> = {
  id: 'ev-1',
  type: AUDIT_RECORDED_TYPE,
  version: 1,
  occurred_at: '2026-03-01T10:00:00+02:00',
  tenant_id: 'acme',
  workspace_id: 'support',
  actor: { user_id: 'u1', kind: 'agent' },
  data,
}

t.test('an envelope becomes a record: scope from the envelope, time of the write, secrets masked again', async (t) => {
  const result = recordFromEnvelope(envelope, 'id-1')
  t.ok(result.ok)
  if (!result.ok) return
  t.match(result.record, {
    id: 'id-1',
    event_id: 'ev-1',
    created_at: '2026-03-01T08:00:00.000Z',
    tenant_id: 'acme',
    workspace_id: 'support',
    action: 'tickets.update',
    success: true,
  })
  t.same(result.record.request_json, { title: 'x', nested: { api_key: '[REDACTED]', Refresh_Token: '[REDACTED]' } })
  t.same(result.record.after_json, { title: 'x', password: '[REDACTED]' })
})

t.test('invalid records are refused with the reason', async (t) => {
  t.match(recordFromEnvelope({ ...envelope, data: { ...data, success: 'yes' } }, 'x'), {
    ok: false,
    error: /success/,
  })
  t.match(recordFromEnvelope({ ...envelope, data: null }, 'x'), { ok: false })
  t.match(recordFromEnvelope({ ...envelope, occurred_at: 'later' }, 'x'), { ok: false, error: /occurred_at/ })
})

/** The fields of one CSV line (RFC 4180 quoting, no line breaks inside), to read an exported cell back. */
const csvFields = (line: string) =>
  [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]!,
  )

t.test('csv rows: JSON columns as text, formulas neutralised', async (t) => {
  const result = recordFromEnvelope(envelope, 'id-1')
  if (!result.ok) throw new Error('fixture')
  const row = csvRow(result.record)
  t.equal(row.length, CSV_COLUMNS.length)
  const cell = (c: (typeof CSV_COLUMNS)[number]) => row[CSV_COLUMNS.indexOf(c)]
  // formulas are neutralised as the rows are written (csv-stringify's escape_formulas): read the cell back
  const exported = csvFields(auditCsv([result.record]).split('\n')[1]!)
  t.equal(exported[CSV_COLUMNS.indexOf('user_agent')], `'=HYPERLINK("x")`)
  t.equal(cell('success'), 'true')
  t.equal(cell('status_code'), '200')
  t.same(JSON.parse(cell('before_json')!), { title: 'a' })
  t.equal(csvRow({ ...result.record, before_json: null })[CSV_COLUMNS.indexOf('before_json')], '')
})

t.test('retention cutoff', async (t) => {
  t.equal(retentionCutoff(new Date('2026-07-01T00:00:00.000Z'), 180), '2026-01-02T00:00:00.000Z')
  t.equal(retentionCutoff(new Date('2026-07-01T12:34:56.789Z'), 1), '2026-06-30T12:34:56.789Z')
})
