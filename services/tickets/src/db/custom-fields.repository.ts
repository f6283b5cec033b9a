import { fromJson, type Scope, type Tx, toBool, toJson, whereScope } from '@switchboard/platform'
import type { Kysely, Selectable } from 'kysely'
import type { CustomFieldType, FieldDefinition, Validation } from '../domain/custom-fields.ts'
import type { CustomField } from '../schemas/custom-fields.schemas.ts'
import type { CustomFieldsTable, TicketsDatabase } from './database.ts'

type Db = Kysely<TicketsDatabase>

export function toCustomField(row: Selectable<CustomFieldsTable>): CustomField {
  return {
    id: row.id,
    resource: row.resource,
    key: row.key,
    name: row.name,
    type: row.type,
    required: toBool(row.required),
    active: toBool(row.active),
    options: fromJson<string[]>(row.options, []),
    validation: fromJson<Validation>(row.validation, {}),
    show_when: fromJson<CustomField['show_when']>(row.show_when, null),
    tenant_id: row.tenant_id,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** The parts of a stored field the value rules look at. */
export const definitionOf = (f: CustomField): FieldDefinition => ({
  key: f.key,
  name: f.name,
  type: f.type as CustomFieldType,
  required: f.required,
  active: f.active,
  options: f.options,
  validation: f.validation,
  show_when: f.show_when,
})

export async function insertCustomField(db: Db, f: CustomField): Promise<void> {
  await db
    .insertInto('custom_fields')
    .values({
      ...f,
      options: toJson(f.options)!,
      validation: toJson(f.validation)!,
      show_when: toJson(f.show_when),
    })
    .execute()
}

export async function updateCustomField(db: Db, id: string, patch: Partial<CustomField>): Promise<void> {
  const { options, validation, show_when, ...plain } = patch
  await db
    .updateTable('custom_fields')
    .set({
      ...plain,
      ...(options !== undefined ? { options: toJson(options)! } : {}),
      ...(validation !== undefined ? { validation: toJson(validation)! } : {}),
      ...(show_when !== undefined ? { show_when: toJson(show_when) } : {}),
    })
    .where('id', '=', id)
    .execute()
}

export async function deleteCustomField(db: Db, id: string): Promise<void> {
  await db.deleteFrom('custom_fields').where('id', '=', id).execute()
}

const fieldById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('custom_fields').selectAll().where('id', '=', id), scope)

/** Scoped: another tenant's field is not found, like a missing one. */
export async function findCustomField(db: Db, id: string, scope: Scope): Promise<CustomField | undefined> {
  const row = await fieldById(db, id, scope).executeTakeFirst()
  return row ? toCustomField(row) : undefined
}

/** `findCustomField`, its row locked until `tx` ends. */
export async function findCustomFieldForUpdate(tx: Tx<TicketsDatabase>, id: string, scope: Scope) {
  const row = await tx.forUpdate(fieldById(tx.db, id, scope)).executeTakeFirst()
  return row ? toCustomField(row) : undefined
}

/** A scope's fields by key order (a short list: CUSTOM_FIELDS_PER_SCOPE bounds it per scope). */
export async function listCustomFields(
  db: Db,
  scope: Scope,
  filter: { resource?: string | undefined; active?: boolean | undefined } = {},
): Promise<CustomField[]> {
  let q = whereScope(db.selectFrom('custom_fields').selectAll(), scope)
  if (filter.resource) q = q.where('resource', '=', filter.resource)
  if (filter.active !== undefined) q = q.where('active', '=', filter.active)
  const rows = await q.orderBy('key').orderBy('tenant_id').orderBy('workspace_id').limit(1000).execute()
  return rows.map(toCustomField)
}

export async function countCustomFields(db: Db, scope: Scope): Promise<number> {
  const row = await whereScope(db.selectFrom('custom_fields'), scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Each key's types in the filter scope (one, unless an unscoped admin spans tenants), for `cf.<key>` filters. */
export async function fieldTypes(db: Db, scope: Scope, keys: string[]): Promise<Map<string, CustomFieldType[]>> {
  const types = new Map<string, CustomFieldType[]>()
  if (keys.length === 0) return types
  const rows = await whereScope(
    db.selectFrom('custom_fields').select(['key', 'type']).distinct().where('key', 'in', keys),
    scope,
  ).execute()
  for (const r of rows) types.set(r.key, [...(types.get(r.key) ?? []), r.type as CustomFieldType])
  return types
}
