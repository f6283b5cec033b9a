import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, PageQuery, Paginated } from '@switchboard/contracts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Tag = Type.String({ minLength: 1, maxLength: 64 })
/** An array, or one comma-separated string (the earlier system's CSV), split into tags either way. */
const Tags = Type.Union([
  Type.Array(Tag, { maxItems: 50, uniqueItems: true }),
  Type.String({ maxLength: 3300, description: 'comma-separated; split into tags' }),
])
const Email = Type.String({ format: 'email', maxLength: 254 })

/** The customer tier SLA configs match on. */
export const CUSTOMER_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
const Priority = Type.Union(CUSTOMER_PRIORITIES.map((p) => Type.Literal(p)))
const Company = Type.String({ maxLength: 200 })
const Industry = Type.String({ maxLength: 100 })
const Notes = Type.String({ maxLength: 10_000 })

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
  company: Type.String(),
  industry: Type.String(),
  priority: Type.String({ description: 'low | normal | high | urgent' }),
  notes: Type.String(),
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
    company: Type.Optional(Company),
    industry: Type.Optional(Industry),
    priority: Type.Optional(Priority),
    notes: Type.Optional(Notes),
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
    company: Type.Optional(Company),
    industry: Type.Optional(Industry),
    priority: Type.Optional(Priority),
    notes: Type.Optional(Notes),
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
    industry: Type.Optional(Industry),
    priority: Type.Optional(Priority),
  }),
])
export type CustomerListQuery = Static<typeof CustomerListQuery>
export const CustomerPage = Paginated(CustomerSchema)

/** `content`, or `note` as the earlier system called it: one of them (both only when they agree). */
export const NoteBody = Type.Object(
  {
    content: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
  },
  { additionalProperties: false, minProperties: 1 },
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

/** GET /api/customers/stats, over the scope; `new_this_week` counts the last 7 days. */
export const CustomerStats = Type.Object({
  total: Type.Integer(),
  active: Type.Integer({ description: 'customers whose account is active' }),
  new_this_week: Type.Integer({ description: 'created in the last 7 days' }),
  by_source: Type.Array(Type.Object({ source: Type.String(), count: Type.Integer() })),
  by_industry: Type.Array(Type.Object({ industry: Type.String(), count: Type.Integer() })),
  by_priority: Type.Array(Type.Object({ priority: Type.String(), count: Type.Integer() })),
})

export const CustomerRevokeResult = Type.Object({ customer_id: Type.String(), token_version: Type.Integer() })
