import { type Static, type TSchema, Type } from '@sinclair/typebox'

/** The one error body of the fleet (docs/api.md §5). */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'short label' }),
    message: Type.String(),
    code: Type.String({ description: 'stable machine-readable code' }),
    request_id: Type.String(),
  },
  { $id: 'ErrorBody' },
)
export type ErrorBody = Static<typeof ErrorBody>

export const Timestamp = Type.String({ format: 'date-time' })
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** The highest page a list accepts: beyond it an offset is nonsense, and an unbounded integer reaches the database. */
export const MAX_PAGE = 1_000_000
export const MAX_PAGE_SIZE = 200

/** `page` from 1, `page_size` 1–200 (default 20): bounded, so `page=1e309` is a 400 naming the parameter. */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 })),
})
export type PageQuery = Static<typeof PageQuery>

/** Paginated list envelope: `pages` is always filled. */
export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    page_size: Type.Integer(),
    pages: Type.Integer(),
  })

/** Bounded list envelope (auth sessions, security look-ups, batch results). */
export const BoundedList = <T extends TSchema>(item: T) =>
  Type.Object({ count: Type.Integer(), items: Type.Array(item) })
