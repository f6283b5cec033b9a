import { html, htmlDocument, type SafeHtml, trustedHtml } from '@switchboard/platform'
import type { ArticleEntry } from '../db/help-centre.repository.ts'
import { slugOf } from '../domain/help-markdown.ts'
import type { PublicKbDoc } from '../schemas/knowledge-docs.schemas.ts'
import { HELP_LOCALES, type HelpLocale, type HelpMessages, LOCALE_NAMES } from './help-messages.ts'

/** What every page of one help centre knows: its words, where it lives, how to link within it. */
export interface HelpContext {
  locale: HelpLocale
  m: HelpMessages
  /** `/help/<tenant>/<workspace>`, encoded */
  base: string
  /** the public origin for absolute URLs (canonical, og:url, sitemap); relative links without it */
  origin: string | undefined
  /** `?lang=` was given: links carry it on, so the choice sticks without a cookie */
  langParam: HelpLocale | undefined
  /** the current page's path (no query), for the language switch */
  path: string
}

export interface PageSlice<T> {
  rows: T[]
  total: number
  page: number
  pages: number
}

export interface CategoryGroup {
  category: string
  total: number
  articles: ArticleEntry[]
}

/** A path of this help centre with its query, `lang` carried on when the reader chose one. */
export function linkTo(ctx: HelpContext, path: string, query: Record<string, string | number | undefined> = {}) {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v))
  if (ctx.langParam) params.set('lang', ctx.langParam)
  const qs = params.toString()
  return qs ? `${path}?${qs}` : path
}

export const categoryPath = (ctx: HelpContext, category: string) =>
  `${ctx.base}/categories/${encodeURIComponent(category)}`

export function articlePath(ctx: HelpContext, a: { id: string; title: string }) {
  const slug = slugOf(a.title)
  return `${ctx.base}/articles/${encodeURIComponent(a.id)}${slug ? `-${slug}` : ''}`
}

const absolute = (ctx: HelpContext, path: string) => (ctx.origin ? `${ctx.origin}${path}` : path)

export const categoryName = (ctx: HelpContext, category: string) => (category === 'general' ? ctx.m.general : category)

function searchForm(ctx: HelpContext, q = '') {
  return html`<form class="search" role="search" method="get" action="${ctx.base}/search">
<label for="q">${ctx.m.searchLabel}</label>
<input type="search" id="q" name="q" value="${q}" maxlength="200" placeholder="${ctx.m.searchPlaceholder}">
${ctx.langParam ? html`<input type="hidden" name="lang" value="${ctx.langParam}">` : ''}
<button type="submit">${ctx.m.searchButton}</button>
</form>`
}

function languageSwitch(ctx: HelpContext, query: Record<string, string | number | undefined>) {
  const links = HELP_LOCALES.map((l) => {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v))
    params.set('lang', l)
    return html`<a href="${ctx.path}?${params.toString()}" hreflang="${l}" lang="${l}"${
      l === ctx.locale ? trustedHtml(' aria-current="true"') : ''
    }>${LOCALE_NAMES[l]}</a>`
  })
  return html`<nav aria-label="${ctx.m.language}">${links.map((l, i) => (i ? html` · ${l}` : l))}</nav>`
}

function articleList(ctx: HelpContext, articles: ArticleEntry[]) {
  return html`<ul class="list">${articles.map(
    (a) => html`<li><a href="${linkTo(ctx, articlePath(ctx, a))}">${a.title}</a></li>`,
  )}</ul>`
}

function pager(ctx: HelpContext, path: string, slice: PageSlice<unknown>, query: Record<string, string> = {}) {
  if (slice.pages <= 1) return ''
  const prev = slice.page > 1 ? linkTo(ctx, path, { ...query, page: slice.page - 1 }) : undefined
  const next = slice.page < slice.pages ? linkTo(ctx, path, { ...query, page: slice.page + 1 }) : undefined
  return html`<nav class="pages" aria-label="${ctx.m.pages}">
${prev ? html`<a href="${prev}" rel="prev">${ctx.m.previous}</a>` : ''}
<span>${ctx.m.pageOf(slice.page, slice.pages)}</span>
${next ? html`<a href="${next}" rel="next">${ctx.m.next}</a>` : ''}
</nav>`
}

interface Frame {
  title: string
  description: string
  /** the canonical path (no `lang`) */
  canonical?: string
  robots?: string
  /** the query the language switch keeps */
  query?: Record<string, string | number | undefined>
}

function page(ctx: HelpContext, frame: Frame, body: SafeHtml): string {
  const title = frame.title === ctx.m.siteName ? frame.title : `${frame.title} · ${ctx.m.siteName}`
  return htmlDocument(
    {
      lang: ctx.locale,
      title,
      description: frame.description,
      canonical: frame.canonical ? absolute(ctx, frame.canonical) : undefined,
      siteName: ctx.m.siteName,
      home: linkTo(ctx, ctx.base),
      robots: frame.robots,
      headerExtra: languageSwitch(ctx, frame.query ?? {}),
      footer: html`<p>${ctx.m.footer}</p>`,
    },
    body,
  )
}

export function homePage(ctx: HelpContext, groups: CategoryGroup[], perCategory: number): string {
  const sections = groups.map((g, i) => {
    const name = categoryName(ctx, g.category)
    return html`<section class="category" aria-labelledby="topic-${i}">
<h3 id="topic-${i}"><a href="${linkTo(ctx, categoryPath(ctx, g.category))}">${name}</a> <span class="muted">(${ctx.m.articleCount(g.total)})</span></h3>
${articleList(ctx, g.articles.slice(0, perCategory))}
${g.total > perCategory ? html`<p><a href="${linkTo(ctx, categoryPath(ctx, g.category))}">${ctx.m.allInCategory(g.total, name)}</a></p>` : ''}
</section>`
  })
  return page(
    ctx,
    { title: ctx.m.siteName, description: ctx.m.homeDescription, canonical: ctx.base },
    html`<h1>${ctx.m.siteName}</h1>
<p class="muted">${ctx.m.homeDescription}</p>
${searchForm(ctx)}
<h2>${ctx.m.categoriesHeading}</h2>
${sections}`,
  )
}

export function categoryPage(ctx: HelpContext, category: string, slice: PageSlice<ArticleEntry>): string {
  const name = categoryName(ctx, category)
  const path = categoryPath(ctx, category)
  return page(
    ctx,
    {
      title: name,
      description: ctx.m.categoryDescription(name),
      canonical: slice.page > 1 ? `${path}?page=${slice.page}` : path,
      query: { page: slice.page > 1 ? slice.page : undefined },
    },
    html`<nav aria-label="${ctx.m.breadcrumb}"><a href="${linkTo(ctx, ctx.base)}">${ctx.m.siteName}</a></nav>
<h1>${name}</h1>
<p class="muted">${ctx.m.articleCount(slice.total)}</p>
${articleList(ctx, slice.rows)}
${pager(ctx, path, slice)}`,
  )
}

export interface SearchHit {
  id: string
  title: string
  excerpt: string
}

export function searchPage(ctx: HelpContext, q: string, slice: PageSlice<SearchHit> | undefined): string {
  const path = `${ctx.base}/search`
  const heading = q ? ctx.m.resultsFor(q) : ctx.m.searchTitle
  const results = !slice
    ? html`<p>${ctx.m.emptySearch}</p>`
    : slice.total === 0
      ? html`<p>${ctx.m.noResults}</p>`
      : html`<p class="muted" role="status">${ctx.m.resultCount(slice.total)}</p>
<ul class="list">${slice.rows.map(
          (hit) => html`<li><a href="${linkTo(ctx, articlePath(ctx, hit))}">${hit.title}</a>
<p class="muted">${hit.excerpt}</p></li>`,
        )}</ul>
${pager(ctx, path, slice, { q })}`
  return page(
    ctx,
    {
      title: heading,
      description: ctx.m.homeDescription,
      robots: 'noindex',
      query: { q, page: slice && slice.page > 1 ? slice.page : undefined },
    },
    html`<nav aria-label="${ctx.m.breadcrumb}"><a href="${linkTo(ctx, ctx.base)}">${ctx.m.siteName}</a></nav>
<h1>${heading}</h1>
${searchForm(ctx, q)}
${results}`,
  )
}

export function articlePage(ctx: HelpContext, doc: PublicKbDoc, body: string, description: string): string {
  const name = categoryName(ctx, doc.category)
  const date = new Intl.DateTimeFormat(ctx.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(doc.updated_at),
  )
  return page(
    ctx,
    { title: doc.title, description, canonical: articlePath(ctx, doc) },
    html`<nav aria-label="${ctx.m.breadcrumb}"><a href="${linkTo(ctx, ctx.base)}">${ctx.m.siteName}</a> ›
<a href="${linkTo(ctx, categoryPath(ctx, doc.category))}">${name}</a></nav>
<article>
<h1>${doc.title}</h1>
<p class="muted"><time datetime="${doc.updated_at}">${ctx.m.updated(date)}</time></p>
${trustedHtml(body)}
</article>
${
  doc.tags.length
    ? html`<h2>${ctx.m.tags}</h2>
<ul class="tags">${doc.tags.map((tag) => html`<li>${tag}</li>`)}</ul>`
    : ''
}
${searchForm(ctx)}
<p><a href="${linkTo(ctx, ctx.base)}">${ctx.m.backHome}</a></p>`,
  )
}

/** The page of a 404 or 400: the same words whatever was asked for (a private doc is a missing one). */
export function errorPage(ctx: HelpContext, status: 400 | 404): string {
  const [title, text] =
    status === 404 ? [ctx.m.notFoundTitle, ctx.m.notFoundText] : [ctx.m.badRequestTitle, ctx.m.badRequestText]
  return page(
    ctx,
    { title, description: text, robots: 'noindex' },
    html`<h1>${title}</h1>
<p>${text}</p>
<p><a href="${linkTo(ctx, ctx.base)}">${ctx.m.backHome}</a></p>`,
  )
}

const xmlEscape = (s: string) => html`${s}`.value

/** The sitemap protocol's XML: absolute locations (relative ones when no origin is known), last changes. */
export function sitemapXml(ctx: HelpContext, groups: CategoryGroup[], articles: ArticleEntry[]): string {
  const url = (path: string, lastmod?: string) =>
    `<url><loc>${xmlEscape(absolute(ctx, path))}</loc>${lastmod ? `<lastmod>${xmlEscape(lastmod)}</lastmod>` : ''}</url>`
  const newest = articles
    .map((a) => a.updated_at)
    .sort()
    .at(-1)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url(ctx.base, newest),
    ...groups.map((g) => url(categoryPath(ctx, g.category))),
    ...articles.map((a) => url(articlePath(ctx, a), a.updated_at)),
    '</urlset>',
    '',
  ].join('\n')
}
