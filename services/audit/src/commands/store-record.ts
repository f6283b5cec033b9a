import type { AuditService } from '../context.ts'
import { toAuditLog } from '../db/audit-logs.repository.ts'
import {
  addErasedSubjects,
  epochOf,
  insertAuditLogAt,
  lockAuditLogs,
  recordsOfResource,
  tenantErasures,
} from '../db/erased-subjects.repository.ts'
import { updateMaskedRecord } from '../db/erasure.repository.ts'
import { ErasedIndex, type ErasedMatch, erasedMatch, maskedRecord, subjectOf } from '../domain/erased-subjects.ts'
import type { AuditLog } from '../schemas/audit.schemas.ts'

interface TenantView {
  epoch: number
  index: ErasedIndex
}

/** Per replica: each tenant's erased subjects, read once and again only when the tenant's epoch moved. */
const views = new WeakMap<AuditService, Map<string, Promise<TenantView>>>()

function viewOf(svc: AuditService, tenant: string, reload: boolean): Promise<TenantView> {
  let byTenant = views.get(svc)
  if (!byTenant) {
    byTenant = new Map()
    views.set(svc, byTenant)
  }
  const held = byTenant.get(tenant)
  if (held && !reload) return held
  const loading = tenantErasures(svc.db, tenant).then(({ epoch, subjects }) => ({
    epoch,
    index: new ErasedIndex(tenant, subjects),
  }))
  byTenant.set(tenant, loading)
  loading.catch(() => {
    if (byTenant.get(tenant) === loading) byTenant.delete(tenant)
  })
  return loading
}

/** Attempts before giving up to the bus's retry: the epoch moved under every one of them (erasures in a burst). */
const ATTEMPTS = 5

/**
 * Stores a record once, masked when it concerns a person erased before it arrived (a record still in flight: a
 * JetStream backlog, a dead letter replayed, the gateway's hand-over queue). The check costs no query: the
 * replica's cache of the tenant's erased subjects is tested in memory, and the insert itself compares the tenant's
 * epoch with the one the cache was read at — a stale cache inserts nothing, reloads and tries again. An erasure
 * locks the table while it writes its subjects and scans (db/erased-subjects.repository.ts `lockAuditLogs`), so a
 * record is either there for its scan or inserted after its epoch is visible. Returns whether a row was written.
 */
export async function storeAuditRecord(
  svc: AuditService,
  record: AuditLog,
): Promise<{ inserted: boolean; masked: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const view = await viewOf(svc, record.tenant_id, attempt > 0)
    const match = erasedMatch(view.index, record)
    const row = match ? maskedRecord(view.index, record, match) : record
    const inserted = match?.resource
      ? await insertWithResource(svc, view, row, match)
      : await insertAuditLogAt(svc.db, svc.dialect, row, view.epoch)
    if (inserted) return { inserted, masked: match !== undefined }
    if ((await epochOf(svc.db, record.tenant_id)) === view.epoch) return { inserted: false, masked: false }
    if (attempt + 1 >= ATTEMPTS) throw new Error(`erased subjects of tenant ${record.tenant_id} kept changing`)
  }
}

/**
 * A record of a resource that was not the person's until now (a ticket or session created for them while the
 * erasure ran): the resource becomes an erased subject, and its records already stored are masked, in the same
 * transaction as the insert, with the table locked as an erasure locks it.
 */
async function insertWithResource(svc: AuditService, view: TenantView, row: AuditLog, match: ErasedMatch) {
  const tenant = row.tenant_id
  const subject = subjectOf(tenant, match.resource!, 'resource')
  const done = await svc.db.transaction().execute(async (tx) => {
    await lockAuditLogs(tx, svc.dialect)
    if (!(await insertAuditLogAt(tx, svc.dialect, row, view.epoch))) return false
    if (!subject) return true
    await addErasedSubjects(tx, tenant, `record:${row.event_id}`, [subject])
    const index = view.index.with(subject)
    for (const stored of await recordsOfResource(tx, tenant, match.resource!)) {
      if (stored.id === row.id) continue
      const r = toAuditLog(stored)
      await updateMaskedRecord(tx, maskedRecord(index, r, { own: index.kindOf(r.actor_user_id) === 'id' }))
    }
    return true
  })
  if (done) views.get(svc)?.delete(tenant)
  return done
}
