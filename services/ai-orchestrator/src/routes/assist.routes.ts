import { errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { suggest } from '../queries/assist.queries.ts'
import { SuggestBody, Suggestions, SuggestQuery } from '../schemas/assist.schemas.ts'

const tags = ['assist']

/**
 * `/api/assist/suggest` (the gateway checks `assist.*`): intent, similar tickets and knowledge docs
 * for an agent's query, from the agent's scope. GET and POST ask the same; POST also sets the candidates looked at.
 * A read, though POST: it writes nothing (the audit hook still records the call, as for every POST under /api).
 */
export const assistRoutes: RouteModule<AiService> = async (app, svc) => {
  app.get(
    '/api/assist/suggest',
    { schema: { tags, querystring: SuggestQuery, response: { 200: Suggestions, ...errorResponses(400, 401) } } },
    async (request) => {
      const { query, limit, doc_limit } = request.query
      return suggest(svc, scopeOf(request), { query, ticket_limit: limit, knowledge_doc_limit: doc_limit })
    },
  )

  app.post(
    '/api/assist/suggest',
    { schema: { tags, body: SuggestBody, response: { 200: Suggestions, ...errorResponses(400, 401) } } },
    async (request) => suggest(svc, scopeOf(request), request.body),
  )
}
