import { columnTypes, dialectOf } from '@switchboard/platform'
import { type Kysely, sql } from 'kysely'

// The statuses a ticket can still breach an SLA in (services/tickets/README.md, SLA).
const OPEN = "status in ('open', 'assigned', 'in_progress')"

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(dialectOf(db))

  await db.schema
    .createTable('sla_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    // '' matches every customer tier that has no config of its own
    .addColumn('customer_tier', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', t.json, (c) => c.notNull())
    .addColumn('warning_threshold', 'integer', (c) => c.notNull())
    .addColumn('first_response_time', 'integer', (c) => c.notNull())
    .addColumn('resolution_time', 'integer', (c) => c.notNull())
    .addColumn('escalation_time', 'integer', (c) => c.notNull())
    .addColumn('business_hours_only', t.bool, (c) => c.notNull())
    .addColumn('active', t.bool, (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()
  // One config per priority and tier, one name, in a scope: the database settles two concurrent creates.
  await db.schema
    .createIndex('sla_configs_match_key')
    .on('sla_configs')
    .columns(['tenant_id', 'workspace_id', 'priority', 'customer_tier'])
    .unique()
    .execute()
  await db.schema
    .createIndex('sla_configs_name_key')
    .on('sla_configs')
    .columns(['tenant_id', 'workspace_id', 'name'])
    .unique()
    .execute()

  await db.schema
    .createTable('sla_violations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('sla_config_id', 'text', (c) => c.notNull())
    .addColumn('violation_type', 'text', (c) => c.notNull())
    // the ticket's priority and its customer's tier when recorded: stats group by them whatever changed since
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('customer_tier', 'text', (c) => c.notNull())
    .addColumn('deadline', t.timestamp, (c) => c.notNull())
    .addColumn('violated_at', t.timestamp, (c) => c.notNull())
    .addColumn('resolved', t.bool, (c) => c.notNull())
    .addColumn('resolved_at', t.timestamp)
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .execute()
  // The referee between monitor passes (and replicas): a violation is recorded once, whoever sees it first.
  await db.schema
    .createIndex('sla_violations_once_key')
    .on('sla_violations')
    .columns(['ticket_id', 'sla_config_id', 'violation_type'])
    .unique()
    .execute()
  await db.schema
    .createIndex('sla_violations_scope_idx')
    .on('sla_violations')
    .columns(['tenant_id', 'workspace_id', 'violated_at'])
    .execute()
  await db.schema
    .createTable('sla_business_hours')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('weekly', t.json, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('sla_business_hours_pk', ['tenant_id', 'workspace_id'])
    .execute()

  // identity's customers, for the tier configs match on (and the name macros render)
  await db.schema
    .createTable('sla_customer_tiers')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('sla_customer_tiers_pk', ['tenant_id', 'workspace_id', 'user_id'])
    .execute()

  // conversations' sessions, for which ticket an agent's reply in a session answers
  await db.schema
    .createTable('sla_session_tickets')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('ticket_id', 'text')
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute()

  // The first agent comment or conversation reply (services/tickets/README.md, SLA: first response).
  await db.schema.alterTable('tickets').addColumn('first_response_at', t.timestamp).execute()
  // The config under which each kind of breach is already recorded: the monitor's pass skips what it has seen
  // with a column comparison instead of a look-up in sla_violations per overdue ticket (whose unique key stays the
  // referee). A ticket whose priority or tier later matches another config differs from it and is measured again.
  await db.schema.alterTable('tickets').addColumn('sla_fr_recorded', 'text').execute()
  await db.schema.alterTable('tickets').addColumn('sla_res_recorded', 'text').execute()
  await db.schema.createIndex('tickets_session_idx').on('tickets').column('session_id').execute()
  // The monitor's pass reads open tickets only: where closed ones are the many, this is what it scans.
  await db.schema
    .createIndex('tickets_sla_open_idx')
    .on('tickets')
    .columns(['tenant_id', 'workspace_id', 'priority', 'created_at'])
    .where(sql<boolean>`${sql.raw(OPEN)}`)
    .execute()
}
