import { type Static, Type } from '@sinclair/typebox'

const ScopeId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' })

/** `POST /public/widget/tickets`: a widget visitor's "leave a message" while nobody is online. */
export const WidgetTicketBody = Type.Object(
  {
    tenant_id: ScopeId,
    workspace_id: ScopeId,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.String({ format: 'email', minLength: 3, maxLength: 320 }),
    content: Type.String({ minLength: 1, maxLength: 10_000 }),
    /** the widget's conversation, when the visitor had one: the ticket continues it */
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
)
export type WidgetTicketBody = Static<typeof WidgetTicketBody>

export const WidgetTicketCreated = Type.Object({ ticket_id: Type.String() })
