import { dialectOf } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

// The list's totals on PostgreSQL without counting rows: a scope's tickets per status and priority as signed
// deltas, appended by statement triggers in the same transaction as every ticket write (a total is exact and never
// drifts) and folded into one row per key by the `tickets-count-compaction` worker. Appending takes no lock on a
// shared row, so writers never queue or deadlock on a counter. SQLite (the embedded default, one process, small
// data) counts the rows themselves. See db/ticket-counts.repository.ts.
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return
  await sql`
    create table ticket_counts (
      tenant_id text not null,
      workspace_id text not null,
      status text not null,
      priority text not null,
      n bigint not null
    )
  `.execute(db)
  await sql`create index ticket_counts_key_idx on ticket_counts (tenant_id, workspace_id, status, priority)`.execute(db)
  // One row per key a statement changed, with its net change (an update that moved nothing nets to zero: no row).
  // `set search_path from current` pins the migration's path (the service's schema) to the function, so a write
  // from a session with another path (an operator's psql naming schema.tickets) still counts into this schema's table.
  await sql`
    create function ticket_counts_append() returns trigger language plpgsql
    set search_path from current
    as $$
    begin
      if tg_op = 'INSERT' then
        insert into ticket_counts
        select tenant_id, workspace_id, status, priority, count(*) from new_rows
        group by tenant_id, workspace_id, status, priority;
      elsif tg_op = 'DELETE' then
        insert into ticket_counts
        select tenant_id, workspace_id, status, priority, -count(*) from old_rows
        group by tenant_id, workspace_id, status, priority;
      else
        insert into ticket_counts
        select tenant_id, workspace_id, status, priority, sum(d) from (
          select tenant_id, workspace_id, status, priority, -1 as d from old_rows
          union all
          select tenant_id, workspace_id, status, priority, 1 as d from new_rows
        ) moved
        group by tenant_id, workspace_id, status, priority
        having sum(d) <> 0;
      end if;
      return null;
    end
    $$
  `.execute(db)
  await sql`
    create trigger ticket_counts_inserted after insert on tickets referencing new table as new_rows
    for each statement execute function ticket_counts_append()
  `.execute(db)
  await sql`
    create trigger ticket_counts_updated after update on tickets referencing old table as old_rows new table as new_rows
    for each statement execute function ticket_counts_append()
  `.execute(db)
  await sql`
    create trigger ticket_counts_deleted after delete on tickets referencing old table as old_rows
    for each statement execute function ticket_counts_append()
  `.execute(db)
  // The first counts from the rows already there. A frozen copy of rebuildTicketCounts (db/ticket-counts.repository.ts)
  // without its lock: the migrator's transaction already holds the tickets table (the triggers above), and a migration
  // imports nothing from runtime code (docs/conventions.md §18).
  await sql`
    insert into ticket_counts (tenant_id, workspace_id, status, priority, n)
    select tenant_id, workspace_id, status, priority, count(*) from tickets
    group by tenant_id, workspace_id, status, priority
  `.execute(db)
}
