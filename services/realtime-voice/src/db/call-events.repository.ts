import { fromJson, toBool, toJson } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { StoredCallEvent } from '../domain/call-record.ts'
import type { CallStatus } from '../domain/call-state.ts'
import type { CallEventKind } from '../domain/protocols.ts'
import type { CallEventsTable, RealtimeDatabase } from './database.ts'

type Db = Kysely<RealtimeDatabase>

function toEvent(row: Selectable<CallEventsTable>): StoredCallEvent {
  const { from_addr, to_addr, ...rest } = row
  return {
    ...rest,
    kind: row.kind as CallEventKind,
    call_status: row.call_status as CallStatus,
    from: from_addr,
    to: to_addr,
    seq: Number(row.seq),
    occurred_at_given: toBool(row.occurred_at_given),
    metadata: fromJson<Record<string, unknown>>(row.metadata, {}),
  }
}

export async function insertCallEvent(db: Db, event: StoredCallEvent): Promise<void> {
  const { from, to, ...rest } = event
  await db
    .insertInto('call_events')
    .values({ ...rest, from_addr: from, to_addr: to, metadata: toJson(event.metadata)! })
    .execute()
}

/** The latest stored event of this kind of a call (events of a call are written under its lock, in sequence). */
export async function lastCallEvent(db: Db, callRef: string, kind: string): Promise<StoredCallEvent | undefined> {
  const row = await db
    .selectFrom('call_events')
    .selectAll()
    .where('call_ref', '=', callRef)
    .where('kind', '=', kind)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? toEvent(row) : undefined
}

/** How many events of this kind the call has had: the next one's sequence is one more. */
export async function countCallEvents(db: Db, callRef: string, kind: string): Promise<number> {
  const row = await db
    .selectFrom('call_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('call_ref', '=', callRef)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow()
  return Number((row as { n: number | string }).n)
}
