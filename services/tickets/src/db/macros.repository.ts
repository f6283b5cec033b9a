import {
  type Dialect,
  likeOperator,
  type PageWindow,
  type Scope,
  selectPage,
  toBool,
  whereScope,
} from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { Macro } from '../schemas/macro.schemas.ts'
import type { MacrosTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

const toMacro = (row: Selectable<MacrosTable>): Macro => ({ ...row, active: toBool(row.active) })

export async function insertMacro(db: Db, macro: Macro): Promise<void> {
  await db.insertInto('macros').values(macro).execute()
}

export async function findMacro(db: Db, id: string, scope: Scope): Promise<Macro | undefined> {
  const row = await whereScope(db.selectFrom('macros').selectAll().where('id', '=', id), scope).executeTakeFirst()
  return row ? toMacro(row) : undefined
}

/** Another macro of the scope with this name, for a 409 before the unique key would say it. */
export async function macroNamed(db: Db, scope: Scope, name: string, exceptId: string): Promise<boolean> {
  const row = await db
    .selectFrom('macros')
    .select('id')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst()
  return row !== undefined
}

export async function writeMacro(db: Db, id: string, patch: Partial<Macro>): Promise<void> {
  await db.updateTable('macros').set(patch).where('id', '=', id).execute()
}

export async function deleteMacro(db: Db, id: string): Promise<void> {
  await db.deleteFrom('macros').where('id', '=', id).execute()
}

export async function listMacros(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  f: { active?: boolean; language?: string; search?: string },
  window: PageWindow,
) {
  let q = whereScope(db.selectFrom('macros'), scope)
  if (f.active !== undefined) q = q.where('active', '=', f.active)
  if (f.language) q = q.where('language', '=', f.language)
  if (f.search) {
    const pattern = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    q = q.where((eb) => sql<boolean>`${eb.ref('name')} ${sql.raw(likeOperator(dialect))} ${pattern} escape '\\'`)
  }
  const { rows, total } = await selectPage(q, window, (qb) => qb.selectAll().orderBy('name').orderBy('id'))
  return { rows: rows.map(toMacro), total }
}
