import type { Kysely } from 'kysely'
import type { AiDatabase, AiRepliesTable } from './database.ts'

const iso = (ms: number) => new Date(ms).toISOString()

/** Has this customer message been answered (or handed over) already? */
export async function findReply(db: Kysely<AiDatabase>, message_id: string) {
  return db.selectFrom('ai_replies').selectAll().where('message_id', '=', message_id).executeTakeFirst()
}

/** What a claim attempt found. */
export type Claim =
  /** the first attempt: the message is this attempt's to answer */
  | { kind: 'claimed' }
  /** an earlier attempt's lease ran out (it died): now this attempt's; the earlier one may have written its reply */
  | { kind: 'taken_over'; previous: string | null }
  /** answered, handed over or skipped already: nothing to do */
  | { kind: 'settled'; outcome: string }
  /** another attempt holds a live lease, until `until` (epoch ms) */
  | { kind: 'held'; by: string | null; until: number }

/**
 * Claims a message before answering it (`outcome: 'pending'`, held by `holder` for `leaseMs`). When a row exists,
 * takes it over only if it is pending and its lease ran out: one conditional UPDATE, so of two attempts racing for an
 * expired lease exactly one wins (on SQLite and PostgreSQL alike). Otherwise says who holds it, or how it settled.
 */
export async function claimReply(
  db: Kysely<AiDatabase>,
  row: Omit<AiRepliesTable, 'outcome' | 'query_id' | 'claimed_by' | 'claimed_until'>,
  holder: string,
  leaseMs: number,
  now = Date.now(),
): Promise<Claim> {
  const until = iso(now + leaseMs)
  const inserted = await db
    .insertInto('ai_replies')
    .values({ ...row, outcome: 'pending', query_id: null, claimed_by: holder, claimed_until: until })
    .onConflict((oc) => oc.column('message_id').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: 'claimed' }
  const before = await findReply(db, row.message_id)
  if (!before) return { kind: 'held', by: null, until: now } // not there any more: look again
  if (before.outcome !== 'pending') return { kind: 'settled', outcome: before.outcome }
  const taken = await db
    .updateTable('ai_replies')
    .set({ claimed_by: holder, claimed_until: until })
    .where('message_id', '=', row.message_id)
    .where('outcome', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', iso(now))]))
    .executeTakeFirst()
  if (Number(taken.numUpdatedRows) > 0) return { kind: 'taken_over', previous: before.claimed_by }
  const current = await findReply(db, row.message_id)
  if (current && current.outcome !== 'pending') return { kind: 'settled', outcome: current.outcome }
  return {
    kind: 'held',
    by: current?.claimed_by ?? null,
    until: current?.claimed_until ? new Date(current.claimed_until).getTime() : now,
  }
}

/**
 * Extends `holder`'s lease to now + `leaseMs`; false when it holds it no more (another attempt took it over after it
 * ran out, or it is settled): then this attempt must not write an answer.
 */
export async function renewReply(
  db: Kysely<AiDatabase>,
  message_id: string,
  holder: string,
  leaseMs: number,
  now = Date.now(),
): Promise<boolean> {
  const res = await db
    .updateTable('ai_replies')
    .set({ claimed_until: iso(now + leaseMs) })
    .where('message_id', '=', message_id)
    .where('claimed_by', '=', holder)
    .where('outcome', '=', 'pending')
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

/**
 * The outcome of a claimed message, once its answer is written (or it turned out to need none): only by the attempt
 * holding the claim, and once. False for a stale holder (its lease was taken over) or a settled message.
 */
export async function settleReply(
  db: Kysely<AiDatabase>,
  message_id: string,
  holder: string,
  outcome: string,
  query_id: string | null,
): Promise<boolean> {
  const res = await db
    .updateTable('ai_replies')
    .set({ outcome, query_id })
    .where('message_id', '=', message_id)
    .where('claimed_by', '=', holder)
    .where('outcome', '=', 'pending')
    .executeTakeFirst()
  return Number(res.numUpdatedRows) > 0
}

/**
 * Gives `holder`'s lease up (it failed and its delivery will come again): the next attempt takes the message over at
 * once instead of waiting the lease out. Nothing when it holds it no more.
 */
export async function releaseReply(db: Kysely<AiDatabase>, message_id: string, holder: string): Promise<void> {
  await db
    .updateTable('ai_replies')
    .set({ claimed_until: null })
    .where('message_id', '=', message_id)
    .where('claimed_by', '=', holder)
    .where('outcome', '=', 'pending')
    .execute()
}
