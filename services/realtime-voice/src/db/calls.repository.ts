import { fromJson, type Scope, type Tx, toBool, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { Call } from '../domain/call-record.ts'
import type { CallStatus } from '../domain/call-state.ts'
import type { CallsTable, RealtimeDatabase } from './database.ts'

type Db = Kysely<RealtimeDatabase>

export function toCall(row: Selectable<CallsTable>): Call {
  const { from_addr, to_addr, ...rest } = row
  return {
    ...rest,
    status: row.status as CallStatus,
    from: from_addr,
    to: to_addr,
    conversation_opened: toBool(row.conversation_opened),
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
  }
}

export async function insertCall(db: Db, call: Call): Promise<void> {
  const { from, to, ...rest } = call
  await db
    .insertInto('calls')
    .values({ ...rest, from_addr: from, to_addr: to, metadata: toJson(call.metadata)! })
    .execute()
}

const callOf = (db: Db, callId: string, scope: Scope) =>
  whereScope(db.selectFrom('calls').selectAll().where('call_id', '=', callId), scope)

/**
 * A call by the signalling side's id, in a concrete scope: another tenant's call is not found, like a missing one.
 */
export async function findCall(db: Db, callId: string, scope: Scope): Promise<Call | undefined> {
  const row = await callOf(db, callId, scope).executeTakeFirst()
  return row ? toCall(row) : undefined
}

/** `findCall`, its row locked until `tx` ends, so two events of one call are applied one after the other. */
export async function findCallForUpdate(
  tx: Tx<RealtimeDatabase>,
  callId: string,
  scope: Scope,
): Promise<Call | undefined> {
  const row = await tx.forUpdate(callOf(tx.db, callId, scope)).executeTakeFirst()
  return row ? toCall(row) : undefined
}

export async function findCallById(db: Db, id: string): Promise<Call | undefined> {
  const row = await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? toCall(row) : undefined
}

type CallPatch = Partial<
  Pick<
    Call,
    'status' | 'answered_at' | 'ended_at' | 'transferred_to' | 'dtmf_digits' | 'conversation_settled_at' | 'updated_at'
  >
>

export async function updateCall(db: Db, id: string, patch: CallPatch): Promise<void> {
  await db.updateTable('calls').set(patch).where('id', '=', id).execute()
}
