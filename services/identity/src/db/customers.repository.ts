import { type Dialect, fromJson, toJson, whereScope } from '@switchboard/platform'
import { type Selectable, sql } from 'kysely'
import type { CustomerNotesTable, CustomersTable } from './database.ts'
import type { Scope } from './scoped-users.repository.ts'
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

export interface CustomerFilter {
  search?: string | undefined
  source?: string | undefined
  tag?: string | undefined
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
  if (f.tag) {
    const tag = f.tag
    q =
      dialect === 'postgres'
        ? q.where(sql<boolean>`tags @> ${JSON.stringify([tag])}::jsonb`)
        : q.where(sql<boolean>`exists (select 1 from json_each(customers.tags) where json_each.value = ${tag})`)
  }
  return q
}

export async function listCustomers(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  f: CustomerFilter,
  page: number,
  pageSize: number,
) {
  const [rows, total] = await Promise.all([
    filtered(db, dialect, scope, f)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filtered(db, dialect, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.n) }
}

export interface CustomerPatch {
  name?: string | undefined
  email?: string | undefined
  phone?: string | undefined
  source?: string | undefined
  tags?: string[] | undefined
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
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
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
