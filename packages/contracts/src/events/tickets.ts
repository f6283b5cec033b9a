import { Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

const TicketFacts = Type.Object({
  ticket_id: Type.String(),
  /** optional: producers before it did not send it (ai-orchestrator's assist keeps the last title it saw) */
  title: Type.Optional(Type.String()),
  customer_id: Type.String(),
  agent_id: Nullable(Type.String()),
  category: Type.String(),
  priority: Type.String(),
  status: Type.String(),
  source: Type.String(),
  created_at: Type.String(),
})

export const TicketEvents = {
  created: { type: 'tickets.ticket.created', data: TicketFacts },
  updated: {
    type: 'tickets.ticket.updated',
    data: Type.Object({ ticket: TicketFacts, changed: Type.Array(Type.String()) }),
  },
  statusChanged: {
    type: 'tickets.ticket.status_changed',
    data: Type.Object({
      ticket_id: Type.String(),
      from: Type.String(),
      to: Type.String(),
      resolved_at: Nullable(Type.String()),
      closed_at: Nullable(Type.String()),
    }),
  },
  commented: {
    type: 'tickets.comment.added',
    data: Type.Object({ ticket_id: Type.String(), comment_id: Type.String(), type: Type.String() }),
  },
  closed: {
    type: 'tickets.ticket.closed',
    data: Type.Object({ ticket_id: Type.String(), reason: Type.String(), closed_at: Type.String() }),
  },
  /**
   * A ticket continues a conversation (created with `session_id`): conversations sets the session's `ticket_id`
   * and announces it with `conversations.session.linked`. Ids are user ids for the customer, as everywhere.
   */
  sessionLinked: {
    type: 'tickets.ticket.session_linked',
    data: Type.Object({ ticket_id: Type.String(), session_id: Type.String(), customer_id: Type.String() }),
  },
} as const

/** What the SLA monitor (or a late answer) records: statistics counts `sla_violations` from `violated`. */
export const TicketSlaEvents = {
  violated: {
    type: 'tickets.sla.violated',
    data: Type.Object({
      violation_id: Type.String(),
      ticket_id: Type.String(),
      sla_config_id: Type.String(),
      violation_type: Type.Union([Type.Literal('first_response'), Type.Literal('resolution')]),
      /** the ticket's priority and its customer's tier, as matched when recorded */
      priority: Type.String(),
      customer_tier: Type.String(),
      deadline: Type.String(),
      violated_at: Type.String(),
      /** true when recorded after the fact (answered or resolved late, between two monitor passes) */
      resolved: Type.Boolean(),
    }),
  },
} as const

const SatisfactionFacts = Type.Object({
  satisfaction_id: Type.String(),
  /** null: a conversation's rating from the widget, the conversation having no ticket (or its ticket rated) */
  ticket_id: Nullable(Type.String()),
  /** null: an anonymous widget visitor */
  customer_id: Nullable(Type.String()),
  /** the conversation a widget visitor rated (absent from events older than the field) */
  session_id: Type.Optional(Nullable(Type.String())),
  agent_id: Nullable(Type.String()),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  category: Type.String(),
  /** `api` (staff recorded it), `survey` (the customer answered the public survey), `widget` (a conversation's) */
  source: Type.String(),
  rated_at: Type.String(),
})

/**
 * Ratings: identity keeps the agent's `rating` from these, statistics its `customer_satisfaction`. A change or a
 * removal carries the rating it replaces, so a running average can be corrected without reading the record.
 */
export const TicketSatisfactionEvents = {
  rated: { type: 'tickets.satisfaction.rated', data: SatisfactionFacts },
  changed: {
    type: 'tickets.satisfaction.changed',
    data: Type.Composite([
      SatisfactionFacts,
      Type.Object({ previous_rating: Type.Integer({ minimum: 1, maximum: 5 }) }),
    ]),
  },
  removed: { type: 'tickets.satisfaction.removed', data: SatisfactionFacts },
  /**
   * A survey link to deliver (on close, or resent): the channel that reaches the customer (chat, voice, email)
   * sends `link`. The raw token exists only here and in the link; the database keeps its hash.
   */
  surveySent: {
    type: 'tickets.survey.sent',
    data: Type.Object({
      survey_id: Type.String(),
      ticket_id: Type.String(),
      customer_id: Type.String(),
      channel: Type.String(),
      link: Type.String(),
      expires_at: Type.String(),
    }),
  },
} as const
