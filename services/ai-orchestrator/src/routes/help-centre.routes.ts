import { type Static, Type } from '@sinclair/typebox'
import { MAX_PAGE } from '@switchboard/contracts'
import { pickLocale, publicOrigin, type RouteApp, type RouteModule, type Scope, sendHtml } from '@switchboard/platform'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AiService } from '../context.ts'
import { hasPublicDocs } from '../db/help-centre.repository.ts'
import { createHelpMarkdown } from '../domain/help-markdown.ts'
import { HELP_LOCALES, HELP_MESSAGES } from '../pages/help-messages.ts'
import {
  articlePage,
  articlePath,
  categoryPage,
  errorPage,
  type HelpContext,
  homePage,
  linkTo,
  searchPage,
  sitemapXml,
} from '../pages/help-pages.ts'
import {
  categoryArticles,
  helpIndex,
  publicArticle,
  SITEMAP_MAX,
  searchArticles,
} from '../queries/help-centre.queries.ts'

const tags = ['help-centre']
const ScopePart = Type.String({ minLength: 1, maxLength: 64, description: 'a tenant or workspace id' })
const HelpParams = Type.Object({ tenant: ScopePart, workspace: ScopePart })
const Lang = Type.Optional(Type.String({ maxLength: 35, description: 'en | zh-CN; Accept-Language otherwise' }))
const Page = Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE }))
const HelpQuery = Type.Object({ lang: Lang })
const PagedQuery = Type.Object({ lang: Lang, page: Page })
const SearchQuery = Type.Object({ lang: Lang, page: Page, q: Type.Optional(Type.String({ maxLength: 200 })) })
const CategoryParams = Type.Object({ ...HelpParams.properties, category: Type.String({ minLength: 1, maxLength: 64 }) })
const ArticleParams = Type.Object({
  ...HelpParams.properties,
  ref: Type.String({ minLength: 1, maxLength: 200, description: 'the article id, then -slug' }),
})
const page = (what: string) => ({ description: what, content: { 'text/html': { schema: Type.String() } } })
const HtmlPages = {
  200: page('the page'),
  301: page('to the canonical path'),
  400: page('a page in words'),
  404: page('a page in words'),
}

/** The doc id at the head of an article reference `<uuid>-<slug>`; a reference that is no UUID is taken whole. */
const UUID_HEAD = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=-|$)/i
const idOfRef = (ref: string) => UUID_HEAD.exec(ref)?.[0] ?? ref

/** Good for a minute in caches: a published change shows within it. */
const PAGE_CACHE = 'public, max-age=60'

/**
 * The help centre (`/help/<tenant>/<workspace>/…`, anonymous, reached through the gateway's public route): the
 * public knowledge docs of exactly that scope as server-rendered pages — home by topic with a search box, topic
 * pages, search, articles (Markdown rendered safely) and a sitemap. No script at all; every value escaped. A scope
 * without public docs, a private doc and another scope's doc answer the same 404 page as a missing one.
 */
export const helpCentreRoutes: RouteModule<AiService> = async (app, svc) => {
  const markdown = createHelpMarkdown()

  await app.register(
    async (help: RouteApp) => {
      function contextOf(request: FastifyRequest): HelpContext {
        const params = request.params as Partial<Static<typeof HelpParams>>
        const query = (request.query ?? {}) as { lang?: unknown }
        const given = typeof query.lang === 'string' ? query.lang : undefined
        const locale = pickLocale(HELP_LOCALES, request.headers['accept-language'], given)
        const langParam = given && locale.toLowerCase() === given.toLowerCase() ? locale : undefined
        const base =
          params.tenant && params.workspace
            ? `/help/${encodeURIComponent(params.tenant)}/${encodeURIComponent(params.workspace)}`
            : '/help'
        return {
          locale,
          m: HELP_MESSAGES[locale],
          base,
          origin: publicOrigin(request),
          langParam,
          path: request.url.split('?', 1)[0]!,
        }
      }
      const scopeOf = (p: Static<typeof HelpParams>): Scope => ({ tenant_id: p.tenant, workspace_id: p.workspace })
      const notFound = (request: FastifyRequest, reply: FastifyReply) =>
        sendHtml(reply, 404, errorPage(contextOf(request), 404))

      // a bad address is a page in words too, never the JSON error body; a failure of ours goes to the usual handler
      help.setErrorHandler((err: { statusCode?: number; validation?: unknown }, request, reply) => {
        if (!err.validation && (err.statusCode ?? 500) !== 400) throw err
        return sendHtml(reply, 400, errorPage(contextOf(request), 400))
      })
      help.setNotFoundHandler(notFound)

      help.get(
        '/:tenant/:workspace',
        { schema: { tags, params: HelpParams, querystring: HelpQuery, response: HtmlPages } },
        async (request, reply) => {
          const { groups } = await helpIndex(svc, scopeOf(request.params))
          if (groups.length === 0) return notFound(request, reply)
          return sendHtml(reply, 200, homePage(contextOf(request), groups, 8), { cache: PAGE_CACHE })
        },
      )

      help.get(
        '/:tenant/:workspace/search',
        { schema: { tags, params: HelpParams, querystring: SearchQuery, response: HtmlPages } },
        async (request, reply) => {
          const scope = scopeOf(request.params)
          const q = request.query.q?.trim() ?? ''
          const slice = q ? await searchArticles(svc, markdown, scope, q, request.query.page ?? 1) : undefined
          if ((!slice || slice.total === 0) && !(await hasPublicDocs(svc.db, scope))) return notFound(request, reply)
          return sendHtml(reply, 200, searchPage(contextOf(request), q, slice))
        },
      )

      help.get(
        '/:tenant/:workspace/categories/:category',
        { schema: { tags, params: CategoryParams, querystring: PagedQuery, response: HtmlPages } },
        async (request, reply) => {
          const slice = await categoryArticles(
            svc,
            scopeOf(request.params),
            request.params.category,
            request.query.page ?? 1,
          )
          if (slice.total === 0 || slice.rows.length === 0) return notFound(request, reply)
          return sendHtml(reply, 200, categoryPage(contextOf(request), request.params.category, slice), {
            cache: PAGE_CACHE,
          })
        },
      )

      help.get(
        '/:tenant/:workspace/articles/:ref',
        { schema: { tags, params: ArticleParams, querystring: HelpQuery, response: HtmlPages } },
        async (request, reply) => {
          const doc = await publicArticle(svc, scopeOf(request.params), idOfRef(request.params.ref))
          if (!doc) return notFound(request, reply)
          const ctx = contextOf(request)
          const canonical = articlePath(ctx, doc)
          // an old title's slug, or none: the one address of the article (search engines keep one)
          if (canonical !== ctx.path) return reply.redirect(linkTo(ctx, canonical), 301)
          const body = markdown.render(doc.content)
          const description = markdown.plainText(doc.content, 160) || doc.title
          return sendHtml(reply, 200, articlePage(ctx, doc, body, description), { cache: PAGE_CACHE })
        },
      )

      help.get(
        '/:tenant/:workspace/sitemap.xml',
        {
          schema: {
            tags,
            params: HelpParams,
            response: {
              200: { description: 'the sitemap', content: { 'application/xml': { schema: Type.String() } } },
              404: page('a page in words'),
            },
          },
        },
        async (request, reply) => {
          const { articles, groups } = await helpIndex(svc, scopeOf(request.params), SITEMAP_MAX)
          if (articles.length === 0) return notFound(request, reply)
          return reply
            .header('content-type', 'application/xml; charset=utf-8')
            .header('cache-control', 'public, max-age=300')
            .header('x-content-type-options', 'nosniff')
            .send(sitemapXml(contextOf(request), groups, articles))
        },
      )
    },
    { prefix: '/help' },
  )
}
