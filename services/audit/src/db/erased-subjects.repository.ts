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

/** Rows per statement at most: 24 parameters each, far below either engine's limit. */
const ROWS_PER_STATEMENT = 500

/**
 * Inserts each record only if its tenant's epoch is still the one given with it (the epoch the recorder's cache was
 * read at) and no record of the same event exists: one statement for up to ROWS_PER_STATEMENT records, the epochs
 * read by the insert itself. Returns the event ids written; a record not among them is a duplicate, or its tenant's
 * cache is stale (`epochsOf` tells which).
 */
export async function insertAuditLogsAt(
  db: Db,
  dialect: Dialect,
  rows: ReadonlyArray<{ record: AuditLog; epoch: number }>,
): Promise<Set<string>> {
  const written = new Set<string>()
  if (rows.length === 0) return written
  const columns = Object.keys(auditLogRow(rows[0]!.record)) as Array<keyof ReturnType<typeof auditLogRow>>
  const value = (c: string, v: unknown) => {
    const type = dialect === 'postgres' ? PG_CASTS[c] : undefined
    return type ? sql`cast(${v} as ${sql.raw(type)})` : sql`${v}`
  }
  const guard = (epoch: number) => (dialect === 'postgres' ? sql`cast(${epoch} as integer)` : sql`${epoch}`)
  const names = sql.join(columns.map((c) => sql.id(c)))
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const tuples = rows.slice(at, at + ROWS_PER_STATEMENT).map(({ record, epoch }) => {
      const row = auditLogRow(record) as Record<string, unknown>
      return sql`(${sql.join([...columns.map((c) => value(c, row[c])), guard(epoch)])})`
    })
    const result = await sql<{ event_id: string }>`with incoming (${names}, guard_epoch) as (values ${sql.join(tuples)})
      insert into audit_logs (${names})
      select ${names} from incoming
      where coalesce((select e.epoch from audit_erasure_epochs e where e.tenant_id = incoming.tenant_id), 0)
        = incoming.guard_epoch
      on conflict (event_id) do nothing
      returning event_id`.execute(db)
    for (const r of result.rows) written.add(r.event_id)
  }
  return written
}

/** The epochs of some tenants (0 before a tenant's first erasure), in one query. */
export async function epochsOf(db: Db, tenants: readonly string[]): Promise<Map<string, number>> {
  const epochs = new Map(tenants.map((t) => [t, 0]))
  if (tenants.length === 0) return epochs
  const rows = await db
    .selectFrom('audit_erasure_epochs')
    .select(['tenant_id', 'epoch'])
    .where('tenant_id', 'in', [...new Set(tenants)])
    .execute()
  for (const r of rows) epochs.set(r.tenant_id, Number(r.epoch))
  return epochs
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
