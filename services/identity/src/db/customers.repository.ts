import {
  type Dialect,
  fromJson,
  type PageWindow,
  type Scope,
  selectPage,
  toJson,
  whereScope,
} from '@switchboard/platform'
import { type Selectable, sql } from 'kysely'
import type { CustomerNotesTable, CustomersTable } from './database.ts'
import type { Db } from './users.repository.ts'

export type CustomerRow = Selectable<CustomersTable>
export type CustomerNoteRow = Selectable<CustomerNotesTable>

export interface NewCustomer {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
  name: string
  email: string
  phone: string
  source: string
  tags: string[]
  company?: string | undefined
  industry?: string | undefined
  /** low | normal (the default) | high | urgent */
  priority?: string | undefined
  notes?: string | undefined
  now: string
}

export function insertCustomer(db: Db, c: NewCustomer): Promise<CustomerRow> {
  return db
    .insertInto('customers')
    .values({
      id: c.id,
      user_id: c.user_id,
      tenant_id: c.tenant_id,
      workspace_id: c.workspace_id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      source: c.source,
      tags: toJson(c.tags) ?? '[]',
      company: c.company ?? '',
      industry: c.industry ?? '',
      priority: c.priority ?? 'normal',
      notes: c.notes ?? '',
      created_at: c.now,
      updated_at: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A customer inside the scope, or undefined: another tenant's customer is indistinguishable from none. */
export function findCustomerInScope(db: Db, id: string, scope: Scope): Promise<CustomerRow | undefined> {
  return whereScope(db.selectFrom('customers').selectAll().where('id', '=', id), scope).executeTakeFirst()
}

/** The customer of the scope with this e-mail (stored lower-cased), or undefined. */
export function findCustomerByEmail(db: Db, email: string, scope: Scope): Promise<CustomerRow | undefined> {
  return whereScope(db.selectFrom('customers').selectAll().where('email', '=', email.toLowerCase()), scope)
    .orderBy('created_at')
    .executeTakeFirst()
}

/** The scope's customer whose account has this login name, or undefined (another scope's is none). */
export function findCustomerByUsername(db: Db, username: string, scope: Scope): Promise<CustomerRow | undefined> {
  const account = db.selectFrom('users').select('id').where('username', '=', username)
  return whereScope(db.selectFrom('customers').selectAll().where('user_id', 'in', account), scope).executeTakeFirst()
}

export interface CustomerFilter {
  search?: string | undefined
  source?: string | undefined
  tag?: string | undefined
  industry?: string | undefined
  priority?: string | undefined
}

/** `%`, `_` and `\` in a search term are literal characters, not wildcards. */
const SEARCH_COLUMNS = ['name', 'email', 'phone'] as const
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function filtered(db: Db, dialect: Dialect, scope: Scope, f: CustomerFilter) {
  let q = whereScope(db.selectFrom('customers'), scope)
  if (f.search) {
    const term = `%${escapeLike(f.search)}%`
    // Case-insensitive on both engines; backslash escapes the wildcards (PostgreSQL's default, explicit in SQLite).
    q = q.where((eb) =>
      eb.or(
        SEARCH_COLUMNS.map((col) =>
          dialect === 'postgres'
            ? sql<boolean>`${eb.ref(col)} ilike ${term}`
            : sql<boolean>`${eb.ref(col)} like ${term} escape '\\'`,
        ),
      ),
    )
  }
  if (f.source) q = q.where('source', '=', f.source)
  if (f.industry) q = q.where('industry', '=', f.industry)
  if (f.priority) q = q.where('priority', '=', f.priority)
  if (f.tag) {
    const tag = f.tag
    q =
      dialect === 'postgres'
        ? q.where(sql<boolean>`tags @> ${JSON.stringify([tag])}::jsonb`)
        : q.where(sql<boolean>`exists (select 1 from json_each(customers.tags) where json_each.value = ${tag})`)
  }
  return q
}

export function listCustomers(db: Db, dialect: Dialect, scope: Scope, f: CustomerFilter, window: PageWindow) {
  return selectPage(filtered(db, dialect, scope, f), window, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id'),
  )
}

export interface CustomerPatch {
  name?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  source?: string | undefined
  tags?: string[] | undefined
  company?: string | undefined
  industry?: string | undefined
  priority?: string | undefined
  notes?: string | undefined
}

export function updateCustomer(db: Db, id: string, p: CustomerPatch, now: string): Promise<CustomerRow | undefined> {
  return db
    .updateTable('customers')
    .set({
      ...(p.name === undefined ? {} : { name: p.name }),
      ...(p.email === undefined ? {} : { email: p.email }),
      ...(p.phone === undefined ? {} : { phone: p.phone }),
      ...(p.source === undefined ? {} : { source: p.source }),
      ...(p.tags === undefined ? {} : { tags: toJson(p.tags) ?? '[]' }),
      ...(p.company === undefined ? {} : { company: p.company }),
      ...(p.industry === undefined ? {} : { industry: p.industry }),
      ...(p.priority === undefined ? {} : { priority: p.priority }),
      ...(p.notes === undefined ? {} : { notes: p.notes }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/**
 * The directory's figures over a scope: totals, customers whose account is active, those created since `since`,
 * and counts by source, industry and priority (largest first).
 */
export async function customerStats(db: Db, scope: Scope, since: string) {
  const base = () => whereScope(db.selectFrom('customers'), scope, 'customers')
  const n = sql<number>`count(*)`.as('n')
  const by = (column: 'source' | 'industry' | 'priority') =>
    base()
      .select([`customers.${column} as key`, n])
      .groupBy(`customers.${column}`)
      .orderBy('n', 'desc')
      .orderBy('key')
      .execute()
  const [total, active, fresh, source, industry, priority] = await Promise.all([
    base().select(n).executeTakeFirstOrThrow(),
    base()
      .innerJoin('users', 'users.id', 'customers.user_id')
      .where('users.status', '=', 'active')
      .select(n)
      .executeTakeFirstOrThrow(),
    base().where('customers.created_at', '>=', since).select(n).executeTakeFirstOrThrow(),
    by('source'),
    by('industry'),
    by('priority'),
  ])
  // Counts are bigint strings on PostgreSQL, numbers on SQLite.
  const counted = <K extends string>(name: K, list: Array<{ key: string; n: unknown }>) =>
    list.map((r) => ({ [name]: r.key, count: Number(r.n) }) as Record<K, string> & { count: number })
  return {
    total: Number(total.n),
    active: Number(active.n),
    new_this_week: Number(fresh.n),
    by_source: counted('source', source),
    by_industry: counted('industry', industry),
    by_priority: counted('priority', priority),
  }
}

export interface NewNote {
  id: string
  customer: CustomerRow
  author_user_id: string
  content: string
  now: string
}

export function insertNote(db: Db, n: NewNote): Promise<CustomerNoteRow> {
  return db
    .insertInto('customer_notes')
    .values({
      id: n.id,
      customer_id: n.customer.id,
      tenant_id: n.customer.tenant_id,
      workspace_id: n.customer.workspace_id,
      author_user_id: n.author_user_id,
      content: n.content,
      created_at: n.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function listNotes(db: Db, customerId: string, limit = 200): Promise<CustomerNoteRow[]> {
  return db
    .selectFrom('customer_notes')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute()
}

export function customerView(c: CustomerRow) {
  return {
    id: c.id,
    user_id: c.user_id,
    tenant_id: c.tenant_id,
    workspace_id: c.workspace_id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    source: c.source,
    tags: fromJson<string[]>(c.tags, []),
    company: c.company,
    industry: c.industry,
    priority: c.priority,
    notes: c.notes,
    created_at: c.created_at,
    updated_at: c.updated_at,
  }
}
export type CustomerView = ReturnType<typeof customerView>

export function noteView(n: CustomerNoteRow) {
  return {
    id: n.id,
    customer_id: n.customer_id,
    author_user_id: n.author_user_id,
    content: n.content,
    created_at: n.created_at,
  }
}
