import { type Static, Type } from '@sinclair/typebox'
import { PageQuery, Paginated, Timestamp } from '@switchboard/contracts'
import { TicketComment } from './comments.schemas.ts'

const Name = Type.String({ minLength: 1, maxLength: 100 })
const Description = Type.String({ maxLength: 500 })
const Language = Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$' })
const Content = Type.String({
  minLength: 1,
  maxLength: 20_000,
  description: 'plain text; {{customer.name}}, {{ticket.id}} and {{agent.name}} are filled in when applied',
})

export const Macro = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  language: Type.String(),
  content: Type.String(),
  active: Type.Boolean(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type Macro = Static<typeof Macro>
export const MacroPage = Paginated(Macro)

export const CreateMacroBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    language: Type.Optional(Language),
    content: Content,
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateMacroBody = Static<typeof CreateMacroBody>

export const UpdateMacroBody = Type.Partial(CreateMacroBody, { additionalProperties: false, minProperties: 1 })
export type UpdateMacroBody = Static<typeof UpdateMacroBody>

export const ListMacrosQuery = Type.Composite([
  PageQuery,
  Type.Object({
    active: Type.Optional(Type.Boolean()),
    language: Type.Optional(Language),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'substring of the name' })),
  }),
])
export type ListMacrosQuery = Static<typeof ListMacrosQuery>

/** Either a ticket (the text becomes a system comment) or a session (the text comes back for the agent to send). */
export const ApplyMacroBody = Type.Object(
  {
    ticket_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
)
export type ApplyMacroBody = Static<typeof ApplyMacroBody>

export const AppliedToTicket = Type.Object({
  macro_id: Type.String(),
  ticket_id: Type.String(),
  content: Type.String(),
  comment: TicketComment,
})
export const AppliedToSession = Type.Object({
  macro_id: Type.String(),
  session_id: Type.String(),
  content: Type.String({ description: 'the rendered text; the console sends it as the agent' }),
})
