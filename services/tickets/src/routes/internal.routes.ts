import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { rateSession } from '../commands/satisfaction.commands.ts'
import type { TicketsService } from '../context.ts'
import { WidgetErrors } from '../errors.ts'
import { Satisfaction, SessionRatingBody } from '../schemas/satisfaction.schemas.ts'

/**
 * `/internal/*`: service principals only, never routed by the gateway. `POST /internal/satisfactions/session` is
 * conversations storing a widget visitor's rating of a closed conversation, after it checked the visitor's
 * credential and the status (its `POST /public/widget/sessions/:id/satisfaction`), in the session's scope.
 */
export const internalRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/internal/') && request.principal.kind !== 'service') {
      throw new WidgetErrors.ServiceOnly(request.url.split('?', 1)[0])
    }
  })

  app.post(
    '/internal/satisfactions/session',
    {
      schema: {
        hide: true,
        body: SessionRatingBody,
        response: { 201: Satisfaction, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await rateSession(svc, callerOf(request), request.body)),
  )
}
