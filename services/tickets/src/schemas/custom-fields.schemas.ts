import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, Timestamp } from '@switchboard/contracts'
import { CUSTOM_FIELD_RESOURCES, CUSTOM_FIELD_TYPES } from '../domain/custom-fields.ts'
import { CONDITION_OPS, MAX_CLAUSES } from '../domain/show-when.ts'

type ScalarValue = string | number | boolean
/**
 * In a request, condition values carry no JSON type: the validator coerces types (coerceTypes 'array'), so a union
 * would turn 5 into "5" and [x] into x, and a type list makes Ajv's strict mode warn. The domain checks them
 * (src/domain/show-when.ts: a string of at most 500 characters, a number or a boolean; a list for in / not_in).
 * In a response a union, which the serializer matches branch by branch.
 */
const InputScalar = Type.Unsafe<ScalarValue>({ description: 'a string (at most 500 characters), number or boolean' })
const InputClauseValue = Type.Unsafe<ScalarValue | ScalarValue[]>({
  description: 'one value (string, number or boolean); for in and not_in a list of 1 to 100',
})
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()])
const ClauseValue = Type.Union([Scalar, Type.Array(Scalar)])

export const CustomFieldType = Type.Union(CUSTOM_FIELD_TYPES.map((t) => Type.Literal(t)))
export const CustomFieldResource = Type.Union(CUSTOM_FIELD_RESOURCES.map((r) => Type.Literal(r)))

/** Which rules apply depends on the type: string (lengths, regex), number (min, max), multiselect (choice counts). */
export const Validation = Type.Object(
  {
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    min_length: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
    max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    regex: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'no nested quantifiers or backreferences' }),
    ),
  },
  { additionalProperties: false },
)

/**
 * Shown (and required, if required) only while the condition holds. Two forms, one of them: `{key, equals | in |
 * not_equals}` (one condition on another field's key or ticket.category|priority|source|status), or `{all | any:
 * [{field, op, value}]}` (the earlier system's). One object rather than a union of the two, so a
 * refusal names the member at fault, not "anyOf".
 */
function showWhenSchema(scalar: TSchema, clauseValue: TSchema) {
  const clause = Type.Object(
    {
      field: Type.String({
        minLength: 1,
        maxLength: 70,
        description: 'ticket.category|priority|source|status, or cf.<key> of another field of the workspace',
      }),
      op: Type.Union(
        CONDITION_OPS.map((op) => Type.Literal(op)),
        { description: 'eq, neq (or ne), in, not_in (value a list), exists (no value); values compare as text' },
      ),
      value: Type.Optional(Type.Unsafe<ScalarValue | ScalarValue[]>(clauseValue)),
    },
    { additionalProperties: false },
  )
  const one = Type.Unsafe<ScalarValue>(scalar)
  return Type.Object(
    {
      key: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: "another field's key, or ticket.category|…" }),
      ),
      equals: Type.Optional(one),
      in: Type.Optional(Type.Array(one, { minItems: 1, maxItems: 100 })),
      not_equals: Type.Optional(one),
      all: Type.Optional(Type.Array(clause, { minItems: 1, maxItems: MAX_CLAUSES })),
      any: Type.Optional(Type.Array(clause, { minItems: 1, maxItems: MAX_CLAUSES })),
    },
    { additionalProperties: false, minProperties: 1 },
  )
}

/** `show_when` as a request gives it */
export const ShowWhenInput = showWhenSchema(InputScalar, InputClauseValue)
/** `show_when` as a response carries it */
export const ShowWhen = showWhenSchema(Scalar, ClauseValue)

const Key = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })

export const CustomField = Type.Object({
  id: Type.String(),
  resource: Type.String(),
  key: Type.String(),
  name: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  active: Type.Boolean(),
  options: Type.Array(Type.String()),
  validation: Validation,
  show_when: Nullable(ShowWhen),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CustomField = Static<typeof CustomField>

export const CreateCustomFieldBody = Type.Object(
  {
    resource: Type.Optional(CustomFieldResource),
    key: Key,
    name: Type.Optional(Name),
    type: CustomFieldType,
    required: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
    options: Type.Optional(Options),
    validation: Type.Optional(Validation),
    show_when: Type.Optional(Nullable(ShowWhenInput)),
  },
  { additionalProperties: false },
)
export type CreateCustomFieldBody = Static<typeof CreateCustomFieldBody>

/** `key`, `type` and `resource` are fixed once made: stored values were checked against them. */
export const UpdateCustomFieldBody = Type.Object(
  {
    name: Type.Optional(Name),
    required: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
    options: Type.Optional(Options),
    validation: Type.Optional(Validation),
    show_when: Type.Optional(Nullable(ShowWhenInput)),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateCustomFieldBody = Static<typeof UpdateCustomFieldBody>

export const CustomFieldParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) })
export type CustomFieldParams = Static<typeof CustomFieldParams>

export const ListCustomFieldsQuery = Type.Object({
  resource: Type.Optional(CustomFieldResource),
  active: Type.Optional(Type.Boolean()),
})
export type ListCustomFieldsQuery = Static<typeof ListCustomFieldsQuery>

export const CustomFieldList = BoundedList(CustomField)

export const Deleted = Type.Object({ id: Type.String(), message: Type.Literal('deleted') })
