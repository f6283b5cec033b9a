import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, PageQuery, Paginated } from '@switchboard/contracts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Tag = Type.String({ minLength: 1, maxLength: 64 })
const Tags = Type.Array(Tag, { maxItems: 50, uniqueItems: true })
const Email = Type.String({ format: 'email', maxLength: 254 })

export const CustomerSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  source: Type.String(),
  tags: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const CustomerIdParams = Type.Object({ id: Id })
export type CustomerIdParams = Static<typeof CustomerIdParams>

/**
 * POST /api/customers: a user account (role customer) and its customer record in the request's
 * workspace. Without a password the account gets a random one it can't log in with until reset.
 */
export const CreateCustomerBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Email,
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    tags: Type.Optional(Tags),
    username: Type.Optional(Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' })),
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  },
  { additionalProperties: false },
)
export type CreateCustomerBody = Static<typeof CreateCustomerBody>

export const UpdateCustomerBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Email),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>

export const CustomerListQuery = Type.Composite([
  PageQuery,
  Type.Object({
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    source: Type.Optional(Type.String({ maxLength: 50 })),
    tag: Type.Optional(Tag),
  }),
])
export type CustomerListQuery = Static<typeof CustomerListQuery>
export const CustomerPage = Paginated(CustomerSchema)

export const NoteBody = Type.Object(
  { content: Type.String({ minLength: 1, maxLength: 10_000 }) },
  { additionalProperties: false },
)
export const NoteSchema = Type.Object({
  id: Type.String(),
  customer_id: Type.String(),
  author_user_id: Type.String(),
  content: Type.String(),
  created_at: Type.String(),
})
export const NoteList = BoundedList(NoteSchema)

/** PUT /api/customers/:id/tags replaces the whole set (idempotent). */
export const TagsBody = Type.Object({ tags: Tags }, { additionalProperties: false })

export const CustomerRevokeResult = Type.Object({ customer_id: Type.String(), token_version: Type.Integer() })
