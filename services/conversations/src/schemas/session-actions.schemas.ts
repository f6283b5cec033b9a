import { type Static, Type } from '@sinclair/typebox'
import { PageQuery } from '@switchboard/contracts'
import { CloseSessionBody } from '@switchboard/contracts/conversations-api.ts'
import { MessageContent, MessageMetadata, WrittenKind } from './messages.schemas.ts'
import { Channel, Priority, SessionStatus, userId } from './sessions.schemas.ts'

export { CloseSessionBody } from '@switchboard/contracts/conversations-api.ts'

// Requests of /api/omni/sessions* (the records themselves are in sessions.schemas.ts).

export const ListSessionsQuery = Type.Composite([
  PageQuery,
  Type.Object({
    status: Type.Optional(SessionStatus),
    agent_id: Type.Optional(userId("the assigned agent's user id")),
    customer_id: Type.Optional(userId("the customer's user id")),
    channel: Type.Optional(Channel),
    mine: Type.Optional(
      Type.Boolean({ description: 'only sessions assigned to the calling agent (takes the place of agent_id)' }),
    ),
  }),
])
export type ListSessionsQuery = Static<typeof ListSessionsQuery>

/** An agent or admin opens a conversation with a customer (outbound), optionally taking it and writing first. */
export const CreateSessionBody = Type.Object(
  {
    customer_id: userId('a customer of the scope: record id or user id (stored as the user id)'),
    channel: Type.Optional(Channel),
    subject: Type.Optional(Type.String({ maxLength: 200 })),
    priority: Type.Optional(Priority),
    agent_id: Type.Optional(userId('assign to this agent of the scope: record id or user id')),
    content: Type.Optional(MessageContent),
    kind: Type.Optional(WrittenKind),
    metadata: Type.Optional(MessageMetadata),
  },
  { additionalProperties: false },
)
export type CreateSessionBody = Static<typeof CreateSessionBody>

export const AssignSessionBody = Type.Object(
  { agent_id: userId('an agent of the scope: record id or user id') },
  { additionalProperties: false },
)
export type AssignSessionBody = Static<typeof AssignSessionBody>

export const TransferSessionBody = Type.Object(
  {
    to_agent_id: userId('an agent of the scope: record id or user id'),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type TransferSessionBody = Static<typeof TransferSessionBody>

/** POST /api/omni/sessions/:id/reopen: optional, like close's. */
export const ReopenSessionBody = CloseSessionBody
export type ReopenSessionBody = CloseSessionBody
