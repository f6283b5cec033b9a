import { type Static, Type } from '@sinclair/typebox'
import { Paginated, Timestamp } from '@switchboard/contracts'

export const COMMENT_TYPES = ['comment', 'internal_note', 'system'] as const
export type CommentType = (typeof COMMENT_TYPES)[number]

export const TicketComment = Type.Object({
  id: Type.String(),
  ticket_id: Type.String(),
  author_id: Type.String(),
  content: Type.String(),
  type: Type.Union(COMMENT_TYPES.map((t) => Type.Literal(t))),
  created_at: Timestamp,
})
export type TicketComment = Static<typeof TicketComment>

/** `system` comments are written by the service itself (close), never by a caller. */
export const AddCommentBody = Type.Object(
  {
    content: Type.String({ minLength: 1, maxLength: 20_000 }),
    type: Type.Optional(Type.Union([Type.Literal('comment'), Type.Literal('internal_note')], { default: 'comment' })),
  },
  { additionalProperties: false },
)
export type AddCommentBody = Static<typeof AddCommentBody>

export const CommentPage = Paginated(TicketComment)
