import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { resendSurvey } from '../commands/survey.commands.ts'
import type { TicketsService } from '../context.ts'
import { listSurveys } from '../db/survey.repository.ts'
import { ListSurveysQuery, ResentSurvey, SurveyPage } from '../schemas/satisfaction.schemas.ts'
import { IdParams } from '../schemas/sla.schemas.ts'

const tags = ['satisfaction']

/** `/api/satisfactions/surveys*`: the surveys sent on close, and a fresh link when one went astray. */
export const surveyRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/satisfactions/surveys',
    { schema: { tags, querystring: ListSurveysQuery, response: { 200: SurveyPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const { page: _p, page_size: _s, ...filters } = request.query
      const window = pageWindow(request.query)
      const { rows, total } = await listSurveys(svc.db, scopeOf(request), filters, window)
      return pageOf(rows, total, window)
    },
  )

  app.post(
    '/api/satisfactions/surveys/:id/resend',
    { schema: { tags, params: IdParams, response: { 200: ResentSurvey, ...errorResponses(401, 404, 409) } } },
    async (request) => {
      const { before, after, link } = await resendSurvey(svc, callerOf(request), request.params.id)
      // the link is the customer's credential: the audit record keeps the survey without it
      request.audit = { ...request.audit, resource_id: after.id, before, after }
      return { ...after, link }
    },
  )
}
