import type { CustomerExportPart } from '@switchboard/contracts'
import { fromJson, type Scope, whereScope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { AuditDatabase } from './database.ts'

/** The audit records of what the person did themselves, or what was done to their customer record. */
export async function customerExport(
  db: Kysely<AuditDatabase>,
  ids: string[],
  scope: Scope,
): Promise<CustomerExportPart> {
  const rows = await whereScope(
    db
      .selectFrom('audit_logs')
      .selectAll()
      .where((eb) => eb.or([eb('actor_user_id', 'in', ids), eb('resource_id', 'in', ids)])),
    { tenant_id: scope.tenant_id, workspace_id: '' },
  )
    .orderBy('created_at')
    .limit(10_000)
    .execute()
  return {
    audit_records: rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      action: r.action,
      resource_type: r.resource_type,
      resource_id: r.resource_id,
      method: r.method,
      route: r.route,
      status_code: r.status_code,
      client_ip: r.client_ip,
      user_agent: r.user_agent,
      request_json: fromJson(r.request_json, null),
      before_json: fromJson(r.before_json, null),
      after_json: fromJson(r.after_json, null),
    })),
  }
}
