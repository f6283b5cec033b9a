import { type Caller, concreteScope, newId, nowIso } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import {
  countCustomFields,
  definitionOf,
  findCustomFieldForUpdate,
  insertCustomField,
  listCustomFields,
  deleteCustomField as removeField,
  updateCustomField as writeField,
} from '../db/custom-fields.repository.ts'
import { deleteCustomValueRows } from '../db/ticket-index.repository.ts'
import { CUSTOM_FIELDS_PER_SCOPE, definitionProblems } from '../domain/custom-fields.ts'
import { referenceProblems } from '../domain/show-when.ts'
import { CustomFieldErrors } from '../errors.ts'
import type { CreateCustomFieldBody, CustomField, UpdateCustomFieldBody } from '../schemas/custom-fields.schemas.ts'

const scopeOfField = (f: CustomField) => ({ tenant_id: f.tenant_id, workspace_id: f.workspace_id })

export interface FieldChange {
  before: CustomField
  after: CustomField
}

function checkDefinition(field: CustomField): void {
  const problems = definitionProblems(definitionOf(field))
  if (problems.length > 0) throw new CustomFieldErrors.Invalid(problems.join('; '))
}

/**
 * A `show_when` being set must name fields of the workspace (and options they have). Checked only when it is
 * given: a field whose condition names one since deleted can still be renamed or switched off.
 */
function checkReferences(field: CustomField, workspaceFields: readonly CustomField[]): void {
  if (!field.show_when) return
  const byKey = new Map(workspaceFields.filter((f) => f.id !== field.id).map((f) => [f.key, f]))
  const problems = referenceProblems(field.show_when, byKey)
  if (problems.length > 0) throw new CustomFieldErrors.Invalid(problems.join('; '))
}

/** A field of the caller's workspace; its key is unique there (the unique index settles a race as 409). */
export function createCustomField(svc: TicketsService, caller: Caller, body: CreateCustomFieldBody) {
  const scope = concreteScope(caller)
  const now = nowIso()
  const field: CustomField = {
    id: newId(),
    resource: body.resource ?? 'ticket',
    key: body.key,
    name: body.name ?? body.key,
    type: body.type,
    required: body.required ?? false,
    active: body.active ?? true,
    options: body.options ?? [],
    validation: body.validation ?? {},
    show_when: body.show_when ?? null,
    ...scope,
    created_at: now,
    updated_at: now,
  }
  checkDefinition(field)
  return svc.transaction(caller, async (tx) => {
    if ((await countCustomFields(tx.db, scope)) >= CUSTOM_FIELDS_PER_SCOPE) {
      throw new CustomFieldErrors.TooMany(CUSTOM_FIELDS_PER_SCOPE)
    }
    const existing = await listCustomFields(tx.db, scope)
    if (existing.some((f) => f.key === field.key)) throw new CustomFieldErrors.Exists(field.key)
    checkReferences(field, existing)
    await insertCustomField(tx.db, field)
    return field
  })
}

/**
 * Name, required, active, options, validation and show_when may change; key and type may not (stored values were
 * checked against them). Values already stored are not re-checked: the next write of a ticket's values is.
 */
export function updateCustomField(svc: TicketsService, caller: Caller, id: string, body: UpdateCustomFieldBody) {
  return svc.transaction(caller, async (tx): Promise<FieldChange> => {
    const before = await findCustomFieldForUpdate(tx, id, caller.scope)
    if (!before) throw new CustomFieldErrors.NotFound(id)
    const patch: Partial<CustomField> = {}
    for (const key of ['name', 'required', 'active', 'options', 'validation', 'show_when'] as const) {
      if (body[key] !== undefined) Object.assign(patch, { [key]: body[key] })
    }
    const after: CustomField = { ...before, ...patch, updated_at: nowIso() }
    checkDefinition(after)
    if (body.show_when) checkReferences(after, await listCustomFields(tx.db, scopeOfField(before)))
    await writeField(tx.db, id, { ...patch, updated_at: after.updated_at })
    return { before, after }
  })
}

/** Removes the definition and its index rows; tickets keep the value in their `custom_fields`. */
export function deleteCustomField(svc: TicketsService, caller: Caller, id: string): Promise<CustomField> {
  return svc.transaction(caller, async (tx) => {
    const field = await findCustomFieldForUpdate(tx, id, caller.scope)
    if (!field) throw new CustomFieldErrors.NotFound(id)
    await removeField(tx.db, id)
    await deleteCustomValueRows(tx.db, field.key, field)
    return field
  })
}
