import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { openTicket } from '../commands/ticket.commands.ts'
import type { TicketsService } from '../context.ts'
import { widgetTicketTitle } from '../domain/widget-ticket.ts'
import { WidgetErrors } from '../errors.ts'
import { WidgetTicketBody, WidgetTicketCreated } from '../schemas/widget.schemas.ts'

/**
 * `POST /public/widget/tickets`: "leave a message" when no agent is online (anonymous, the gateway's `/public/widget/`
 * rate limit). identity decides, in one call, whether the scope takes widget visitors (the hub's rule: known,
 * active, `widget_enabled`) and which customer the e-mail is (the scope's, or a new contact there: an e-mail held
 * by an account outside the scope answers like any other, no oracle); the ticket is then an ordinary one of that
 * customer, source `widget`, seen by agents like any other.
 */
export const widgetTicketRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.post(
    '/public/widget/tickets',
    {
      schema: {
        tags: ['widget'],
        body: WidgetTicketBody,
        response: { 201: WidgetTicketCreated, ...errorResponses(400, 403, 404, 503) },
      },
    },
    async (request, reply) => {
      const { tenant_id, workspace_id, name, email, content, session_id } = request.body
      if (!svc.identity) throw new WidgetErrors.Unavailable('UPSTREAM_IDENTITY is not set')
      const scope = { tenant_id, workspace_id }
      const answer = await svc.identity.call<{ user_id: string; code?: string; message?: string }>(
        'POST',
        '/internal/widget/customers',
        { email, ...(name ? { name } : {}) },
        { scope, request_id: String(request.id) },
      )
      if (answer.status !== 200 && answer.status !== 201) {
        const status = answer.status >= 500 ? 502 : answer.status
        throw WidgetErrors.Refused(status, answer.body?.code ?? 'UPSTREAM_ERROR', answer.body?.message ?? 'refused')
      }
      const ticket = await svc.transaction(callerOf(request, scope), (tx) =>
        openTicket(svc, tx, scope, answer.body.user_id, {
          title: widgetTicketTitle(content),
          description: content,
          source: 'widget',
          ...(session_id ? { session_id } : {}),
        }),
      )
      return reply.code(201).send({ ticket_id: ticket.id })
    },
  )
}
