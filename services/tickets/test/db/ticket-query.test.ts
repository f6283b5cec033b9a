// Every filter of GET /api/tickets is served by an index with the scope as its prefix (migration 0011): asked of
// each engine's planner over a few thousand rows, not assumed.
import { inEachStorageMode } from '@switchboard/testing'
import { type Kysely, sql } from 'kysely'
import t from 'tap'
import type { TicketsDatabase } from '../../src/db/database.ts'
import { filteredTickets, type TicketFilters } from '../../src/db/ticket-query.ts'
import { ticketsApp } from '../helpers/app.ts'

const SCOPE = { tenant_id: 'acme', workspace_id: 'support' }

async function seed(db: Kysely<TicketsDatabase>) {
  const rows = Array.from({ length: 3000 }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString()
    return {
      id: `t-${String(i).padStart(5, '0')}`,
      title: `Ticket ${i}`,
      description: `about thing ${i % 97}`,
      customer_id: `c-${i % 600}`,
      agent_id: i % 3 === 0 ? null : `a-${i % 60}`,
      session_id: null,
      category: `cat-${i % 25}`,
      priority: ['low', 'normal', 'high', 'urgent'][i % 4]!,
      status: ['open', 'assigned', 'in_progress', 'resolved', 'closed'][i % 5]!,
      source: `src-${i % 8}`,
      tags: JSON.stringify([`tag-${i % 40}`]),
      custom_fields: JSON.stringify({ plan: `p-${i % 30}` }),
      tenant_id: i % 10 === 0 ? 'globex' : 'acme',
      workspace_id: 'support',
      created_at: at,
      updated_at: at,
      resolved_at: i % 5 >= 3 ? at : null,
      closed_at: i % 5 === 4 ? at : null,
    }
  })
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500)
    await db.insertInto('tickets').values(batch).execute()
    await db
      .insertInto('ticket_tags')
      .values(
        batch.map((r) => ({
          ticket_id: r.id,
          tag: JSON.parse(r.tags)[0],
          tenant_id: r.tenant_id,
          workspace_id: 'support',
        })),
      )
      .execute()
    await db
      .insertInto('ticket_custom_values')
      .values(
        batch.map((r) => ({
          ticket_id: r.id,
          key: 'plan',
          value_text: JSON.parse(r.custom_fields).plan,
          value_number: null,
          tenant_id: r.tenant_id,
          workspace_id: 'support',
        })),
      )
      .execute()
  }
  await sql`analyze`.execute(db)
}

const FILTERS: Array<[string, TicketFilters, RegExp]> = [
  ['status', { status: ['open'] }, /tickets_scope_status_idx/],
  ['priority', { priority: ['urgent'] }, /tickets_scope_priority_idx/],
  ['category', { category: ['cat-3'] }, /tickets_scope_category_idx/],
  ['source', { source: ['src-2'] }, /tickets_scope_source_idx/],
  ['agent_id', { agent_ids: ['a-7'] }, /tickets_scope_agent_idx/],
  ['customer_id', { customer_ids: ['c-42'] }, /tickets_scope_customer_idx/],
  ['tag', { tags: ['tag-5'] }, /ticket_tags_scope_tag_idx/],
  ['cf.<key>', { custom: [{ key: 'plan', texts: ['p-3'], numbers: [] }] }, /ticket_custom_values_text_idx/],
  ['cf.<key> (number)', { custom: [{ key: 'plan', texts: [], numbers: [3] }] }, /ticket_custom_values_number_idx/],
  [
    'created range',
    {
      ranges: {
        created_at: { from: '2026-02-01T00:00:00.000Z', to: { at: '2026-02-02T00:00:00.000Z', exclusive: true } },
      },
    },
    /tickets_scope_created_idx/,
  ],
  [
    'updated range',
    {
      ranges: {
        updated_at: { from: '2026-02-01T00:00:00.000Z', to: { at: '2026-02-02T00:00:00.000Z', exclusive: true } },
      },
    },
    /tickets_scope_updated_idx/,
  ],
  [
    'resolved range',
    {
      ranges: {
        resolved_at: { from: '2026-02-01T00:00:00.000Z', to: { at: '2026-02-02T00:00:00.000Z', exclusive: true } },
      },
    },
    /tickets_scope_resolved_idx/,
  ],
  [
    'closed range',
    {
      ranges: {
        closed_at: { from: '2026-02-01T00:00:00.000Z', to: { at: '2026-02-02T00:00:00.000Z', exclusive: true } },
      },
    },
    /tickets_scope_closed_idx/,
  ],
]

inEachStorageMode(t, 'list filters use their indexes', async (t, mode) => {
  const { svc } = await ticketsApp(t, mode)
  await seed(svc.db)
  const plan = async (f: TicketFilters): Promise<string> => {
    const query = filteredTickets(svc.db, svc.dialect, SCOPE, f).selectAll().compile()
    if (mode === 'postgres') {
      const { rows } = await sql<{
        'QUERY PLAN': string
      }>`explain ${sql.raw(query.sql.replace(/\$(\d+)/g, (_, n) => literal(query.parameters[Number(n) - 1])))}`.execute(
        svc.db,
      )
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    }
    const params = [...query.parameters]
    const text = query.sql.replace(/\?/g, () => literal(params.shift()))
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(text)}`.execute(svc.db)
    return rows.map((r) => r.detail).join('\n')
  }
  for (const [name, filters, index] of FILTERS) {
    const p = await plan(filters)
    t.match(p, index, `${name}: ${p.replace(/\s+/g, ' ').slice(0, 300)}`)
  }
  if (mode === 'postgres') {
    // Whether a trigram index can serve the substring match at all: asked without the scope (an unscoped admin's
    // list), since within one scope the planner weighs it against the scope's own indexes, by the rows it expects.
    const everywhere = { tenant_id: '', workspace_id: '' }
    const query = filteredTickets(svc.db, svc.dialect, everywhere, { search: 'Ticket 1234' }).selectAll().compile()
    const text = query.sql.replace(/\$(\d+)/g, (_, n) => literal(query.parameters[Number(n) - 1]))
    const search = await svc.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx)
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(text)}`.execute(trx)
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    })
    t.match(
      search,
      /tickets_(title|description)_trgm_idx/,
      `search (pg_trgm): ${search.replace(/\s+/g, ' ').slice(0, 300)}`,
    )
  }
})

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'number') return String(v)
  return `'${String(v).replaceAll("'", "''")}'`
}
