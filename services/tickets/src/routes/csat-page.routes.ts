import { Type } from '@sinclair/typebox'
import { callerOf, pickLocale, type RouteApp, type RouteModule, sendHtml } from '@switchboard/platform'
import { publicSurvey, respondToSurvey } from '../commands/survey.commands.ts'
import type { TicketsService } from '../context.ts'
import { CSAT_LOCALES, CSAT_MESSAGES } from '../pages/csat-messages.ts'
import {
  COMMENT_MAX,
  type CsatContext,
  type CsatRefusal,
  refusalPage,
  surveyPage,
  thanksPage,
  withLang,
} from '../pages/csat-pages.ts'
import { CsatTokenParams } from '../schemas/csat.schemas.ts'

const tags = ['csat']

/** What a page needs of a request and a reply (this package does not depend on Fastify's types directly). */
interface PageRequest {
  params: unknown
  query: unknown
  headers: { 'accept-language'?: string | undefined }
}
type PageReply = Parameters<typeof sendHtml>[0]
const Lang = Type.Optional(Type.String({ maxLength: 35, description: 'en | zh-CN; Accept-Language otherwise' }))
const SurveyPageQuery = Type.Object({
  lang: Lang,
  rating: Type.Optional(
    Type.String({ maxLength: 8, description: '1–5: that choice shown chosen (an e-mail’s links)' }),
  ),
})
const LangQuery = Type.Object({ lang: Lang })
/** As a form sends it: text. The rules (a rating 1–5, a comment of at most 2,000) are checked in the handler. */
const SurveyForm = Type.Object({
  rating: Type.Optional(Type.String({ maxLength: 8 })),
  comment: Type.Optional(Type.String({ maxLength: 20_000 })),
})
const page = (what: string) => ({ description: what, content: { 'text/html': { schema: Type.String() } } })
const refusals = {
  400: page('unreadable (a page in words)'),
  404: page('unknown link (a page in words)'),
  409: page('already answered (a page in words)'),
  410: page('expired (a page in words)'),
}

const FORM_TYPE = 'application/x-www-form-urlencoded'
/** What a form's body may hold: two fields; larger is not a survey answer. */
const FORM_BODY_LIMIT = 64 * 1024

const ratingOf = (text: string | undefined) => (text && /^[1-5]$/.test(text.trim()) ? Number(text.trim()) : undefined)

/** The survey's errors, by code, as the page's status; anything else is not a refusal. */
const REFUSALS: Record<string, CsatRefusal> = {
  TICKETS_SURVEY_NOT_FOUND: 404,
  TICKETS_SURVEY_COMPLETED: 409,
  TICKETS_SURVEY_EXPIRED: 410,
}
const STATUS_REFUSALS: Record<string, CsatRefusal> = { completed: 409, expired: 410 }

/**
 * The CSAT page (`/csat/<token>`, anonymous, through the gateway's public route): the survey of `/public/csat/:token`
 * as HTML that works without JavaScript. GET shows the ticket's title, the agent's name, five labelled choices
 * (`?rating=` preselects one) and a comment; the form POSTs `application/x-www-form-urlencoded` to the same address,
 * answered by the same command as the JSON route (once: a second answer is the 409 page), then 303 to the thank-you
 * page. Unknown 404, answered 409, expired 410: each a page in words with that status. The token in the path is the
 * only credential and the form posts only to it, so there is nothing for another site to forge.
 */
export const csatPageRoutes: RouteModule<TicketsService> = async (app, svc) => {
  await app.register(
    async (csat: RouteApp) => {
      function contextOf(request: PageRequest): CsatContext {
        const { token = '' } = (request.params ?? {}) as { token?: string }
        const query = (request.query ?? {}) as { lang?: unknown }
        const given = typeof query.lang === 'string' ? query.lang : undefined
        const locale = pickLocale(CSAT_LOCALES, request.headers['accept-language'], given)
        return {
          locale,
          m: CSAT_MESSAGES[locale],
          path: `/csat/${encodeURIComponent(token)}`,
          langParam: given && locale.toLowerCase() === given.toLowerCase() ? locale : undefined,
        }
      }
      const refuse = (request: PageRequest, reply: PageReply, status: CsatRefusal) =>
        sendHtml(reply, status, refusalPage(contextOf(request), status))

      // Node's URLSearchParams reads a form body; no plugin needed for two fields
      csat.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)))
      })
      csat.setErrorHandler((err: { code?: string; statusCode?: number; validation?: unknown }, request, reply) => {
        const refusal = REFUSALS[err.code ?? '']
        if (refusal) return refuse(request, reply, refusal)
        if (err.validation || err.statusCode === 400) return refuse(request, reply, 400)
        throw err // ours, or a dependency's: the service's own handler answers it
      })
      csat.setNotFoundHandler((request, reply) => refuse(request, reply, 404))

      csat.get(
        '/:token',
        {
          schema: {
            tags,
            params: CsatTokenParams,
            querystring: SurveyPageQuery,
            response: { 200: page('the survey'), ...refusals },
          },
        },
        async (request, reply) => {
          const survey = await publicSurvey(svc, request.params.token)
          const refusal = STATUS_REFUSALS[survey.status]
          if (refusal) return refuse(request, reply, refusal)
          const html = surveyPage(contextOf(request), survey, { rating: ratingOf(request.query.rating) })
          return sendHtml(reply, 200, html)
        },
      )

      csat.post(
        '/:token',
        {
          schema: {
            tags,
            params: CsatTokenParams,
            querystring: LangQuery,
            body: SurveyForm,
            response: { 303: page('to the thank-you page'), ...refusals },
          },
        },
        async (request, reply) => {
          const ctx = contextOf(request)
          const rating = ratingOf(request.body.rating)
          const comment = request.body.comment ?? ''
          const error = !rating
            ? ctx.m.chooseRating
            : comment.length > COMMENT_MAX
              ? ctx.m.commentTooLong(COMMENT_MAX)
              : undefined
          if (error || !rating) {
            // the form again, with what was sent and what is wrong (a survey already closed answers its refusal)
            const survey = await publicSurvey(svc, request.params.token)
            const refusal = STATUS_REFUSALS[survey.status]
            if (refusal) return refuse(request, reply, refusal)
            return sendHtml(reply, 400, surveyPage(ctx, survey, { rating, comment, error }))
          }
          await respondToSurvey(svc, callerOf(request), request.params.token, { rating, comment })
          return reply.redirect(withLang(ctx, `${ctx.path}/thanks`), 303)
        },
      )

      csat.get(
        '/:token/thanks',
        {
          schema: {
            tags,
            params: CsatTokenParams,
            querystring: LangQuery,
            response: { 200: page('thank you'), 303: page('not answered yet: to the survey'), ...refusals },
          },
        },
        async (request, reply) => {
          const survey = await publicSurvey(svc, request.params.token)
          if (survey.status === 'completed') return sendHtml(reply, 200, thanksPage(contextOf(request)))
          const refusal = STATUS_REFUSALS[survey.status]
          if (refusal) return refuse(request, reply, refusal)
          const ctx = contextOf(request)
          return reply.redirect(withLang(ctx, ctx.path), 303)
        },
      )
    },
    { prefix: '/csat' },
  )
}
