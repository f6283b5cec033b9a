import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '@switchboard/contracts'
import { MessageContent, MessageKind, MessageMetadata } from './messages.schemas.ts'
import { Channel, Id, Message, Priority, Session, UserId, userId } from './sessions.schemas.ts'

// /internal/sessions*: the realtime hub and other services (service principals only, hidden from OpenAPI).

const scopeId = (description?: string) =>
  Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$', ...(description ? { description } : {}) })
/** 32 random bytes as base64url are 43 characters; a little room, no more */
const credential = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 128, ...(description ? { description } : {}) })

const messageFields = {
  /** agents reply through /api/omni (their principal, the posting rule) */
  sender: Type.Union([Type.Literal('customer'), Type.Literal('ai'), Type.Literal('system')]),
  content: MessageContent,
  kind: Type.Optional(MessageKind),
  metadata: Type.Optional(MessageMetadata),
  customer_id: Type.Optional(userId("sender customer, signed in: the customer's user id")),
  visitor_credential: Type.Optional(
    credential('sender customer, anonymous, to an existing session: the credential issued with it'),
  ),
  sender_id: Type.Optional(userId("sender ai or system: who (default: the caller's user id)")),
  // Used only when the message creates the session:
  channel: Type.Optional(Channel),
  subject: Type.Optional(Type.String({ maxLength: 200 })),
  priority: Type.Optional(Priority),
  tenant_id: Type.Optional(scopeId("an unscoped caller's session scope (the widget's)")),
  workspace_id: Type.Optional(scopeId()),
}

/** A message to `:id`; a customer's first message to an unknown id creates the session. */
export const InternalMessageBody = Type.Object(messageFields, { additionalProperties: false })
export type InternalMessageBody = Static<typeof InternalMessageBody>

/** `POST /internal/sessions`: the same, the id chosen here unless given. */
export const InternalSessionBody = Type.Object(
  { ...messageFields, session_id: Type.Optional(Id) },
  { additionalProperties: false },
)
export type InternalSessionBody = Static<typeof InternalSessionBody>

export const VisitorGrant = Type.Object({
  visitor_id: Type.String(),
  credential: Type.String({ description: 'shown once; only its SHA-256 is kept' }),
})

export const InternalMessageResult = Type.Object({
  session: Session,
  message: Message,
  created: Type.Boolean(),
  reopened: Type.Boolean(),
  /** set only when this call created an anonymous session */
  visitor: Nullable(VisitorGrant),
})
export type InternalMessageResult = Static<typeof InternalMessageResult>

/** Exactly one party: a customer, a visitor, an agent (with the permissions of its token) or a service. */
export const AccessBody = Type.Object(
  {
    customer_id: Type.Optional(UserId),
    visitor_credential: Type.Optional(credential()),
    agent_user_id: Type.Optional(UserId),
    permissions: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 256 })),
    service_id: Type.Optional(UserId),
  },
  { additionalProperties: false },
)
export type AccessBody = Static<typeof AccessBody>

export const AccessResult = Type.Object({
  session: Session,
  role: Type.Union(
    ['customer', 'visitor', 'agent', 'supervisor', 'observer', 'service'].map((r) => Type.Literal(r)),
    { description: 'supervisor: present through the permission, not the assignment' },
  ),
})
export type AccessResult = Static<typeof AccessResult>
