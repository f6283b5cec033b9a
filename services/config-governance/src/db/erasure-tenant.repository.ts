import { ERASED_TEXT } from '@switchboard/contracts'
import { fromJson, type SecretBox, toJson } from '@switchboard/platform'
import type { Kysely, Transaction } from 'kysely'
import { eraseDocument, erasedTokens } from '../domain/erased-document.ts'
import type { ConfigGovernanceDatabase } from './database.ts'

type Db = Kysely<ConfigGovernanceDatabase> | Transaction<ConfigGovernanceDatabase>

const n = (r: { numDeletedRows?: bigint }) => Number(r.numDeletedRows ?? 0)

/**
 * A tenant's erasure, config-governance's part. The current documents (tenant's and workspaces': the portal's brand,
 * support address and greetings, the providers' settings and sealed keys) are emptied — the tenant is gone, nothing
 * serves them. The history, approvals, verifications and pending changes keep their rows, statuses, risks, versions
 * and times, with every string of theirs tokenised (domain/erased-document.ts) and notes and evidence tombstoned
 * (evidence keeps its count), so the history still reads as one. A change still pending is withdrawn (it could only
 * apply an erased document). App integrations (names, URLs, settings, sealed credentials) are deleted.
 */
export async function eraseTenantConfig(
  db: Db,
  box: SecretBox,
  tenantId: string,
  now: string,
): Promise<Record<string, number>> {
  const token = erasedTokens()
  const opt = (v: string | null) => (v === null ? null : token(v))
  const doc = (raw: unknown) => toJson(eraseDocument(box, fromJson(raw, {}), token))
  const tombstones = (raw: unknown) => toJson(fromJson<unknown[]>(raw, []).map(() => ERASED_TEXT))

  const configs = await db
    .updateTable('scoped_configs')
    .set({ document: toJson({}), updated_by: '' })
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()

  // oldest first, so that tokens are numbered as the history was written
  const changes = await db
    .selectFrom('config_changes')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .execute()
  for (const c of changes) {
    await db
      .updateTable('config_changes')
      .set({
        actor_user_id: token(c.actor_user_id),
        change_ref: token(c.change_ref),
        reason: token(c.reason),
        approval_ref: opt(c.approval_ref),
        before_doc: doc(c.before_doc),
        after_doc: doc(c.after_doc),
      })
      .where('id', '=', c.id)
      .execute()
  }
  const approvals = await db.selectFrom('config_approvals').selectAll().where('tenant_id', '=', tenantId).execute()
  for (const a of approvals) {
    await db
      .updateTable('config_approvals')
      .set({
        actor_user_id: token(a.actor_user_id),
        approval_ref: token(a.approval_ref),
        change_ref: token(a.change_ref),
        reason: token(a.reason),
        notes: ERASED_TEXT,
        evidence: tombstones(a.evidence),
      })
      .where('id', '=', a.id)
      .execute()
  }
  const verifications = await db
    .selectFrom('config_verifications')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .execute()
  for (const v of verifications) {
    const checks = fromJson<Array<Record<string, unknown>>>(v.checks, []).map((c) =>
      c.notes === undefined ? c : { ...c, notes: ERASED_TEXT },
    )
    await db
      .updateTable('config_verifications')
      .set({
        actor_user_id: token(v.actor_user_id),
        change_ref: token(v.change_ref),
        reason: token(v.reason),
        notes: ERASED_TEXT,
        evidence: tombstones(v.evidence),
        checks: toJson(checks),
      })
      .where('id', '=', v.id)
      .execute()
  }
  const pending = await db.selectFrom('config_pending_changes').selectAll().where('tenant_id', '=', tenantId).execute()
  let withdrawn = 0
  for (const p of pending) {
    const waiting = p.status === 'pending'
    if (waiting) withdrawn++
    await db
      .updateTable('config_pending_changes')
      .set({
        status: waiting ? 'withdrawn' : p.status,
        proposer_user_id: token(p.proposer_user_id),
        change_ref: token(p.change_ref),
        reason: token(p.reason),
        approval_ref: token(p.approval_ref),
        before_doc: doc(p.before_doc),
        after_doc: doc(p.after_doc),
        decided_by: waiting ? '' : opt(p.decided_by),
        decided_at: waiting ? now : p.decided_at,
        decision_notes: p.decision_notes === null ? null : ERASED_TEXT,
      })
      .where('id', '=', p.id)
      .execute()
  }
  const integrations = await db.deleteFrom('app_integrations').where('tenant_id', '=', tenantId).executeTakeFirst()
  return {
    configs_emptied: Number(configs.numUpdatedRows ?? 0),
    history_entries_masked: changes.length,
    approvals_masked: approvals.length,
    verifications_masked: verifications.length,
    pending_changes_masked: pending.length,
    pending_changes_withdrawn: withdrawn,
    integrations_deleted: n(integrations),
  }
}
