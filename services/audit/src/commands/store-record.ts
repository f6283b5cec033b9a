import type { AuditService } from '../context.ts'
import { toAuditLog } from '../db/audit-logs.repository.ts'
import {
  addErasedSubjects,
  epochsOf,
  insertAuditLogsAt,
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

/** One record's fate: written now (masked or not), not written (a duplicate), or its own error. */
export type Stored = { ok: true; inserted: boolean; masked: boolean } | { ok: false; error: Error }

/**
 * Stores records once each, masked when one concerns a person erased before it arrived (a record still in flight: a
 * JetStream backlog, a dead letter replayed, the gateway's hand-over queue), in ONE statement for the lot (group
 * commit: the recorder's batch, a hand-over). The check costs no query: each tenant's erased subjects are cached per
 * replica and tested in memory, and the insert compares each tenant's epoch with the one its cache was read at — a
 * record of a stale cache is not inserted; its tenant's cache is reloaded, the record masked again and only the
 * records not written are tried again. An erasure locks the table while it writes its subjects and scans
 * (db/erased-subjects.repository.ts `lockAuditLogs`), so a record is either there for its scan or inserted after its
 * epoch is visible. A failure of the database throws for the lot (the caller tries each record alone).
 */
export async function storeAuditRecords(svc: AuditService, records: readonly AuditLog[]): Promise<Stored[]> {
  const results: Stored[] = new Array(records.length)
  let pending: number[] = []
  const firsts = new Set<string>()
  records.forEach((record, i) => {
    // the same event twice in one batch (a redelivery beside its original): written once, the other a duplicate
    if (firsts.has(record.event_id)) results[i] = { ok: true, inserted: false, masked: false }
    else pending.push(i)
    firsts.add(record.event_id)
  })
  const stale = new Set<string>()
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= ATTEMPTS) {
      for (const i of pending) {
        results[i] = { ok: false, error: new Error(`erased subjects of tenant ${records[i]!.tenant_id} kept changing`) }
      }
      break
    }
    const tenants = [...new Set(pending.map((i) => records[i]!.tenant_id))]
    const views = new Map<string, TenantView>()
    for (const tenant of tenants) views.set(tenant, await viewOf(svc, tenant, stale.has(tenant)))
    stale.clear()
    const plain: Array<{ record: AuditLog; epoch: number }> = []
    const alone: Array<{ view: TenantView; row: AuditLog; match: ErasedMatch }> = []
    const masked = new Set<number>()
    for (const i of pending) {
      const record = records[i]!
      const view = views.get(record.tenant_id)!
      const match = erasedMatch(view.index, record)
      if (!match) {
        plain.push({ record, epoch: view.epoch })
        continue
      }
      masked.add(i)
      const row = maskedRecord(view.index, record, match)
      if (match.resource) alone.push({ view, row, match })
      else plain.push({ record: row, epoch: view.epoch })
    }
    const written = await insertAuditLogsAt(svc.db, svc.dialect, plain)
    for (const { view, row, match } of alone) {
      if (await insertWithResource(svc, view, row, match)) written.add(row.event_id)
    }
    const missed = pending.filter((i) => !written.has(records[i]!.event_id))
    for (const i of pending) {
      if (written.has(records[i]!.event_id)) results[i] = { ok: true, inserted: true, masked: masked.has(i) }
    }
    if (missed.length === 0) break
    // not written: a duplicate if its tenant's epoch is still the cache's, else an erasure came between
    const epochs = await epochsOf(svc.db, [...new Set(missed.map((i) => records[i]!.tenant_id))])
    pending = []
    for (const i of missed) {
      const tenant = records[i]!.tenant_id
      if (epochs.get(tenant) === views.get(tenant)!.epoch) results[i] = { ok: true, inserted: false, masked: false }
      else {
        pending.push(i)
        stale.add(tenant)
      }
    }
  }
  return results
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
    const written = await insertAuditLogsAt(tx, svc.dialect, [{ record: row, epoch: view.epoch }])
    if (!written.has(row.event_id)) return false
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
