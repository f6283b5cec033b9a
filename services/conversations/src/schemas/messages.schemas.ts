import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, MESSAGE_KINDS } from '@switchboard/contracts'
import { Message } from './sessions.schemas.ts'

/**
 * A message's text. The schema's bound is generous (the body limit stops the rest); the rule is
 * MESSAGE_MAX_BYTES of UTF-8 (16 KiB by default), checked by the command: beyond it 413.
 */
export const MessageContent = Type.String({
  minLength: 1,
  maxLength: 1_048_576,
  pattern: '\\S',
  description: 'text, not blank; at most MESSAGE_MAX_BYTES (16 KiB) of UTF-8, else 413',
})
/** Bounded as JSON by MESSAGE_MAX_METADATA_BYTES (4 KiB by default), else 400. */
export const MessageMetadata = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: 64,
  description: 'free-form; at most MESSAGE_MAX_METADATA_BYTES (4 KiB) as JSON',
})
export const MessageKind = Type.Union(MESSAGE_KINDS.map((k) => Type.Literal(k)))
/** what people write: `system` messages are the service's own */
export const WrittenKind = Type.Union([Type.Literal('text'), Type.Literal('image'), Type.Literal('file')])

/** `POST /api/omni/sessions/:id/messages`: an agent's reply. */
export const PostMessageBody = Type.Object(
  {
    content: MessageContent,
    kind: Type.Optional(WrittenKind),
    metadata: Type.Optional(MessageMetadata),
    internal: Type.Optional(
      Type.Boolean({
        description:
          'true: an internal note, seen by staff only (any agent of the scope may write one, in a closed session too)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type PostMessageBody = Static<typeof PostMessageBody>

const MessageId = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'a message id of this session (another is 400); pages follow the order messages were posted in',
})

/**
 * Pages in posting order (each message's `seq`), by message-id cursor: the latest `limit`, those before `before`,
 * or those after `after`.
 */
export const MessagesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  before: Type.Optional(MessageId),
  after: Type.Optional(MessageId),
})
export type MessagesQuery = Static<typeof MessagesQuery>

/**
 * `/internal/sessions/:id/messages`: `visibility=all` adds internal notes (the hub asks for them for staff sockets
 * only); `public`, the default, is what a customer, a visitor or the AI may see.
 */
export const InternalMessagesQuery = Type.Composite([
  MessagesQuery,
  Type.Object({
    visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('all')], { default: 'public' })),
  }),
])
export type InternalMessagesQuery = Static<typeof InternalMessagesQuery>

/** A bounded list (`limit` ≤ 200), oldest first: `{count, items}` (docs/api.md §7). */
export const MessageList = BoundedList(Message)
export type MessageList = Static<typeof MessageList>
