import { fromJson, toJson } from '@switchboard/platform'
import type { Kysely, Selectable, Transaction } from 'kysely'
import { maskPerson } from '../domain/erasure-mask.ts'
import type { AuditDatabase, AuditLogsTable } from './database.ts'

type Db = Kysely<AuditDatabase> | Transaction<AuditDatabase>
type Row = Selectable<AuditLogsTable>

export interface ErasedTenant {
  tenant_id: string
  /** its staff's and customers' accounts: platform-wide records done by or about them are masked too */
  user_ids: string[]
  identifiers: string[]
}

const JSON_COLUMNS = ['request_json', 'before_json', 'after_json'] as const

/** Records masked per read: a tenant's trail can be long, the transaction's memory should not be. */
const PAGE = 500

/** One record with every personal field and identifier masked, and its address and agent gone. */
async function maskWhole(db: Db, row: Row, identifiers: readonly string[]): Promise<void> {
  const masked = Object.fromEntries(
    JSON_COLUMNS.map((c) => [c, toJson(maskPerson(fromJson(row[c], null), identifiers, true))]),
  )
  await db
    .updateTable('audit_logs')
    .set({ ...masked, client_ip: '', user_agent: '' })
    .where('id', '=', row.id)
    .execute()
}

/**
 * A tenant's erasure, audit's part: every record of the tenant — and every record elsewhere done by or about one of
 * its people's accounts — keeps its action, actor kind, resource, route, status and time; every personal field
 * (name, e-mail, content, …) and every identifier of the tenant's staff, tenant and workspaces in any string is
 * masked, and the requester's address and agent emptied. Read in pages by id; masking twice changes nothing.
 */
export async function maskTenantRecords(db: Db, t: ErasedTenant): Promise<number> {
  let after = ''
  let masked = 0
  for (;;) {
    const rows = await db
      .selectFrom('audit_logs')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('tenant_id', '=', t.tenant_id),
          ...(t.user_ids.length ? [eb('actor_user_id', 'in', t.user_ids), eb('resource_id', 'in', t.user_ids)] : []),
          eb('resource_id', '=', t.tenant_id),
        ]),
      )
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute()
    for (const row of rows) await maskWhole(db, row, t.identifiers)
    masked += rows.length
    if (rows.length < PAGE) return masked
    after = rows[rows.length - 1]?.id ?? after
  }
}
