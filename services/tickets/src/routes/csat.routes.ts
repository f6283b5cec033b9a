import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import { publicSurvey, respondToSurvey } from '../commands/survey.commands.ts'
import type { TicketsService } from '../context.ts'
import { CsatRespondBody, CsatRespondResult, CsatTokenParams, PublicSurvey } from '../schemas/csat.schemas.ts'
import { csatPageRoutes } from './csat-page.routes.ts'

const tags = ['csat']

/**
 * `/public/csat/:token`: the customer's survey page, anonymous (the gateway's anonymous class, with its own rate
 * limit). The token is the only credential; what the page shows is the ticket's title and the agent's name. The same
 * survey as an HTML page at `/csat/:token` (csat-page.routes.ts).
 */
export const csatRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/public/csat/:token',
    { schema: { tags, params: CsatTokenParams, response: { 200: PublicSurvey, ...errorResponses(400, 404) } } },
    async (request) => publicSurvey(svc, request.params.token),
  )

  app.post(
    '/public/csat/:token/respond',
    {
      schema: {
        tags,
        params: CsatTokenParams,
        body: CsatRespondBody,
        response: { 200: CsatRespondResult, ...errorResponses(400, 404, 409, 410) },
      },
    },
    async (request) => {
      const rating = await respondToSurvey(svc, callerOf(request), request.params.token, request.body)
      return {
        message: 'Thank you for your feedback!',
        data: { rating: rating.rating, comment: rating.comment, created_at: rating.created_at },
      }
    },
  )

  await csatPageRoutes(app, svc)
}
