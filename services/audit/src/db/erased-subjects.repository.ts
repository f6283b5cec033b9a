import { type Dialect, nowIso } from '@switchboard/platform'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Subject } from '../domain/erased-subjects.ts'
import type { AuditLog } from '../schemas/audit.schemas.ts'
import { auditLogRow } from './audit-logs.repository.ts'
import type { AuditDatabase } from './database.ts'

type Db = Kysely<AuditDatabase> | Transaction<AuditDatabase>

/**
 * Makes the transaction the only writer of audit records until it commits (PostgreSQL; SQLite has one writer
 * anyway): it waits for every insert in flight, whose records its scan then sees, and every insert that starts
 * after it waits and then reads the epoch this transaction raised. Taken first in the transaction, before any other
 * write of audit's tables, so that no insert can hold a lock it waits for.
 */
export async function lockAuditLogs(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`lock table audit_logs in share row exclusive mode`.execute(db)
}

/** A tenant's epoch: 0 before its first erasure. */
export async function epochOf(db: Db, tenant: string): Promise<number> {
  const row = await db
    .selectFrom('audit_erasure_epochs')
    .select('epoch')
    .where('tenant_id', '=', tenant)
    .executeTakeFirst()
  return Number(row?.epoch ?? 0)
}

/** A tenant's erased subjects and the epoch they were read at (one transaction: the pair is consistent). */
export async function tenantErasures(db: Kysely<AuditDatabase>, tenant: string) {
  return db.transaction().execute(async (tx) => {
    const epoch = await epochOf(tx, tenant)
    const subjects: Subject[] =
      epoch === 0
        ? []
        : await tx
            .selectFrom('audit_erased_subjects')
            .select(['digest', 'kind', 'tokens', 'lead'])
            .where('tenant_id', '=', tenant)
            .execute()
    return { epoch, subjects: subjects.map((s) => ({ ...s, tokens: Number(s.tokens), lead: Number(s.lead) })) }
  })
}

/** Remembers subjects (a repeat is a no-op) and raises the tenant's epoch, so that every replica's cache reloads. */
export async function addErasedSubjects(
  db: Db,
  tenant: string,
  erasureId: string,
  subjects: readonly Subject[],
): Promise<void> {
  const at = nowIso()
  if (subjects.length) {
    await db
      .insertInto('audit_erased_subjects')
      .values(subjects.map((s) => ({ tenant_id: tenant, erasure_id: erasureId, erased_at: at, ...s })))
      .onConflict((oc) => oc.columns(['tenant_id', 'digest']).doNothing())
      .execute()
  }
  await db
    .insertInto('audit_erasure_epochs')
    .values({ tenant_id: tenant, epoch: 1 })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ epoch: sql`audit_erasure_epochs.epoch + 1` }))
    .execute()
}

const PG_CASTS: Partial<Record<string, string>> = {
  created_at: 'timestamptz',
  status_code: 'integer',
  success: 'boolean',
  sanitised: 'boolean',
  request_json: 'jsonb',
  before_json: 'jsonb',
  after_json: 'jsonb',
}

/**
 * Inserts the record only if its tenant's epoch is still `epoch` (the one the recorder's cache was read at) and no
 * record of the same event exists — one statement, the epoch read by the insert itself. False when nothing was
 * written: a duplicate, or a stale cache (`epochOf` tells which).
 */
export async function insertAuditLogAt(db: Db, dialect: Dialect, record: AuditLog, epoch: number): Promise<boolean> {
  const row = auditLogRow(record) as Record<string, unknown>
  const columns = Object.keys(row) as Array<keyof ReturnType<typeof auditLogRow>>
  // a part of the insert: built without plugins, which would count it as a query of its own (db_queries_total)
  const select = db
    .withoutPlugins()
    .selectNoFrom(
      columns.map((c) => {
        const type = dialect === 'postgres' ? PG_CASTS[c] : undefined
        return (type ? sql`cast(${row[c]} as ${sql.raw(type)})` : sql`${row[c]}`).as(c)
      }),
    )
    .where(
      sql<number>`coalesce((select epoch from audit_erasure_epochs where tenant_id = ${record.tenant_id}), 0)`,
      '=',
      epoch,
    )
  const result = await db
    .insertInto('audit_logs')
    .columns(columns)
    .expression(select)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** The tenant's records of one resource (a resource that became the person's after the erasure). */
export async function recordsOfResource(db: Db, tenant: string, resourceId: string) {
  return db
    .selectFrom('audit_logs')
    .selectAll()
    .where('tenant_id', '=', tenant)
    .where('resource_id', '=', resourceId)
    .execute()
}
