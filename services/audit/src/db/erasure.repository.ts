import { type Dialect, fromJson, likeOperator, toJson } from '@switchboard/platform'
import { type ExpressionBuilder, type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import { maskPerson } from '../domain/erasure-mask.ts'
import type { AuditLog } from '../schemas/audit.schemas.ts'
import type { AuditDatabase, AuditLogsTable } from './database.ts'

type Db = Kysely<AuditDatabase> | Transaction<AuditDatabase>
type Row = Selectable<AuditLogsTable>

export interface ErasedPerson {
  tenant_id: string
  /** the customer record's and the account's ids */
  ids: string[]
  identifiers: string[]
}

const JSON_COLUMNS = ['request_json', 'before_json', 'after_json'] as const

/** Any of the JSON columns contains any of the needles (as text, case-insensitive). */
function mentions(eb: ExpressionBuilder<AuditDatabase, 'audit_logs'>, dialect: Dialect, needles: readonly string[]) {
  const op = sql.raw(likeOperator(dialect))
  return eb.or(
    needles.flatMap((needle) =>
      JSON_COLUMNS.map(
        (c) => sql<boolean>`cast(${sql.ref(c)} as text) ${op} ${`%${needle.replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`,
      ),
    ),
  )
}

/**
 * The tenant's records that concern the person: done by or to them (actor, resource), naming them (their ids or
 * identifiers anywhere in the payload or snapshots), and every record of a resource such a record named — a session
 * or ticket created for them, whose later records (messages, comments) carry only its id.
 */
export async function recordsOfPerson(
  db: Db,
  dialect: Dialect,
  p: ErasedPerson,
): Promise<{ rows: Row[]; resources: string[] }> {
  const base = () => db.selectFrom('audit_logs').selectAll().where('tenant_id', '=', p.tenant_id)
  const needles = [...p.ids, ...p.identifiers.filter((i) => i.length >= 3)]
  const direct = await base()
    .where((eb) =>
      eb.or([eb('actor_user_id', 'in', p.ids), eb('resource_id', 'in', p.ids), mentions(eb, dialect, needles)]),
    )
    .execute()
  const resources = [...new Set(direct.map((r) => r.resource_id).filter((id) => id && !p.ids.includes(id)))]
  const related = resources.length ? await base().where('resource_id', 'in', resources).execute() : []
  const byId = new Map<string, Row>()
  for (const r of [...direct, ...related]) byId.set(r.id, r)
  return { rows: [...byId.values()], resources }
}

/** Writes a record's masked JSON and, when it is the person's own request, its emptied address and agent. */
export async function updateMaskedRecord(db: Db, r: AuditLog): Promise<void> {
  await db
    .updateTable('audit_logs')
    .set({
      request_json: toJson(r.request_json),
      before_json: toJson(r.before_json),
      after_json: toJson(r.after_json),
      client_ip: r.client_ip,
      user_agent: r.user_agent,
    })
    .where('id', '=', r.id)
    .execute()
}

/** Masks one record in place (see domain/erasure-mask.ts); the person's own requests lose address and agent. */
export async function maskRecord(db: Db, row: Row, p: ErasedPerson): Promise<void> {
  const masked = Object.fromEntries(
    JSON_COLUMNS.map((c) => [c, toJson(maskPerson(fromJson(row[c], null), p.identifiers, true))]),
  )
  const own = p.ids.includes(row.actor_user_id)
  await db
    .updateTable('audit_logs')
    .set({ ...masked, ...(own ? { client_ip: '', user_agent: '' } : {}) })
    .where('id', '=', row.id)
    .execute()
}
