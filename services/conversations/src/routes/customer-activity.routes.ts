import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { customersNamed, recentCustomerMessages, recentCustomerSessions } from '../db/customer-activity.repository.ts'
import { recentCustomerTickets } from '../db/customer-tickets.repository.ts'
import { toMessage } from '../db/messages.repository.ts'
import { toSession } from '../db/sessions.repository.ts'
import { ConversationErrors } from '../errors.ts'
import {
  CustomerActivity,
  CustomerActivityParams,
  CustomerActivityQuery,
} from '../schemas/customer-activity.schemas.ts'
import { requirePermission } from './permission.ts'

/**
 * GET /api/customers/:id/activity (the earlier system's path; the console's customer sidebar). Served by conversations, under
 * identity's prefix: sessions and messages are its own rows and the customer's tickets a small projection of tickets'
 * events, where any other owner would have to copy every message. The customer is looked up in identity's customers
 * as projected here, in the caller's scope: another tenant's customer is the same 404 as a missing one.
 */
export const customerActivityRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  app.get(
    '/api/customers/:id/activity',
    {
      preValidation: requirePermission('customers.read'),
      schema: {
        tags: ['customers'],
        params: CustomerActivityParams,
        querystring: CustomerActivityQuery,
        response: { 200: CustomerActivity, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request): Promise<CustomerActivity> => {
      const { id } = request.params
      const named = await customersNamed(svc.db, id, scopeOf(request))
      if (named.length === 0) throw new ConversationErrors.CustomerNotFound(id)
      if (named.length > 1) throw new ConversationErrors.CustomerAmbiguous(id)
      const customer = named[0]!
      const limit = request.query.limit ?? 10
      const [sessions, tickets, messages] = await Promise.all([
        recentCustomerSessions(svc.db, customer, limit),
        recentCustomerTickets(svc.db, customer, customer.user_id, limit),
        recentCustomerMessages(svc.db, customer, limit),
      ])
      return {
        ...customer,
        recent_sessions: sessions.map((s) => toSession(s)),
        recent_tickets: tickets.map((t) => ({
          id: t.ticket_id,
          title: t.title,
          status: t.status,
          priority: t.priority,
          category: t.category,
          source: t.source,
          agent_id: t.agent_id,
          created_at: t.created_at,
        })),
        recent_messages: messages.map(toMessage),
      }
    },
  )
}
