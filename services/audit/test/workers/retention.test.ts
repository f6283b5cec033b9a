import { inEachStorageMode, waitFor } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import type { AuditDatabase } from '../../src/db/database.ts'
import { retentionCutoff } from '../../src/domain/retention.ts'
import { auditApp } from '../helpers/app.ts'

const row = (id: string, createdAt: string) => ({
  id,
  created_at: createdAt,
  actor_user_id: 'u1',
  principal_kind: 'agent',
  action: 'tickets.create',
  resource_type: 'tickets',
  resource_id: id,
  route: '/api/tickets',
  method: 'POST',
  status_code: 201,
  success: true,
  request_id: id,
  client_ip: '127.0.0.1',
  user_agent: 'test',
  tenant_id: 'acme',
  workspace_id: 'support',
  request_json: null,
  before_json: null,
  after_json: null,
  event_id: `ev-${id}`,
})

const ids = async (db: Kysely<AuditDatabase>) =>
  (await db.selectFrom('audit_logs').select('id').orderBy('id').execute()).map((r) => r.id)

inEachStorageMode(t, 'retention', async (t, mode) => {
  t.test('deletes in batches what is older than the window; a record exactly at the cutoff stays', async (t) => {
    const { svc } = await auditApp(t, mode, { config: { retention_days: 30, retention_batch_size: 2 } })
    const db = svc.db
    const now = new Date('2026-06-01T12:00:00.000Z')
    const cutoff = Date.parse(retentionCutoff(now, 30))
    t.equal(new Date(cutoff).toISOString(), '2026-05-02T12:00:00.000Z')
    const at = (ms: number) => new Date(cutoff + ms).toISOString()
    await db
      .insertInto('audit_logs')
      .values([
        row('old-1', at(-86_400_000 * 90)),
        row('old-2', at(-86_400_000 * 31)),
        row('old-3', at(-86_400_000)),
        row('old-4', at(-60_000)),
        row('old-5', at(-1)),
        row('at-cutoff', at(0)),
        row('newer', at(1)),
        row('today', now.toISOString()),
      ])
      .execute()
    t.equal(await svc.workers.runOnce('audit-retention', now), 5, 'three batches of at most two')
    t.same(await ids(db), ['at-cutoff', 'newer', 'today'])
    t.equal(await svc.workers.runOnce('audit-retention', now), 0, 'nothing left to delete')
    t.equal(await svc.workers.runOnce('audit-retention', new Date(now.getTime() + 1)), 1, 'a millisecond later it goes')
    t.same(await ids(db), ['newer', 'today'])
  })

  t.test('started on ready with the default 180 days, stopped on close', async (t) => {
    const { app, svc } = await auditApp(t, mode, { config: { retention_enabled: true }, ready: false })
    const db = svc.db
    const day = 86_400_000
    await db
      .insertInto('audit_logs')
      .values([
        row('stale', new Date(Date.now() - 181 * day).toISOString()),
        row('kept', new Date(Date.now() - 179 * day).toISOString()),
      ])
      .execute()
    await app.ready()
    await waitFor(async () => ((await ids(db)).length === 1 ? true : undefined))
    t.same(await ids(db), ['kept'])
  })
})
