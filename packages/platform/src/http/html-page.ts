import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Server-rendered public pages (the help centre, the CSAT page): HTML built by a tagged template that escapes
 * every value it is given, one small stylesheet inlined under its hash, and headers that allow nothing else — no
 * script at all, no plugin, no framing, forms only to the page's own origin. Written here rather than taken from a
 * template engine: the pages are a few fixed shapes, and escaping by construction is what matters.
 */

const SAFE = Symbol('safe-html')

/** Markup already escaped (made by `html`) or trusted (a sanitising renderer's output, passed through `trustedHtml`). */
export interface SafeHtml {
  readonly [SAFE]: true
  readonly value: string
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for an element's content or a quoted attribute: every character that could end either is escaped. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const isSafe = (v: unknown): v is SafeHtml => typeof v === 'object' && v !== null && SAFE in v

/** Trusted markup (a sanitising renderer's output): the one way past the escaping. */
export const trustedHtml = (value: string): SafeHtml => ({ [SAFE]: true, value })

type Part = SafeHtml | string | number | false | null | undefined | readonly Part[]

function partOf(v: Part): string {
  if (v === null || v === undefined || v === false) return ''
  if (Array.isArray(v)) return v.map(partOf).join('')
  if (isSafe(v)) return v.value
  return escapeHtml(String(v))
}

/** `html\`<p>${text}</p>\`` — every interpolated value escaped unless it is SafeHtml; arrays joined. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += partOf(values[i]) + strings[i + 1]!
  return trustedHtml(out)
}

/**
 * The locale of a page: `?lang=` when it names a supported one, else the best of Accept-Language (q-values
 * honoured, a bare `zh` or `en-GB` matching by language), else the first supported. A few lines, so no library.
 */
export function pickLocale<L extends string>(
  supported: readonly L[],
  acceptLanguage: string | undefined,
  lang?: string | undefined,
): L {
  const byLanguage = (tag: string) => {
    const t = tag.trim().toLowerCase()
    if (!t) return undefined
    return (
      supported.find((s) => s.toLowerCase() === t) ??
      supported.find((s) => s.toLowerCase().split('-')[0] === t.split('-')[0])
    )
  }
  const asked = lang ? byLanguage(lang) : undefined
  if (asked) return asked
  const ranked = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((entry, i) => {
      const [tag = '', ...params] = entry.split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q ? Number(q.slice(2)) : 1
      return { tag, weight: Number.isFinite(weight) ? weight : 0, i }
    })
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
  for (const { tag } of ranked) {
    const found = byLanguage(tag)
    if (found) return found
  }
  return supported[0]!
}

/** The stylesheet of every public page: small, system fonts, light and dark, visible focus. */
export const PUBLIC_PAGE_CSS = `
:root{color-scheme:light dark;--fg:#1d1d1f;--muted:#5b5b66;--bg:#fff;--card:#f5f5f7;--line:#d2d2d7;--accent:#0a58ca}
@media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--muted:#b4b4bf;--bg:#141416;--card:#222226;--line:#3a3a40;--accent:#8ab4ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:48rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between}
header a.brand{font-weight:600;font-size:1.15rem;color:var(--fg);text-decoration:none}
footer{color:var(--muted);font-size:.875rem;border-top:1px solid var(--line)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
h1{font-size:1.75rem;line-height:1.25}
.muted{color:var(--muted)}
form.search{display:flex;gap:.5rem;flex-wrap:wrap}
input[type=search],textarea{font:inherit;padding:.5rem;border:1px solid var(--muted);border-radius:.375rem;background:var(--bg);color:var(--fg)}
input[type=search]{flex:1 1 14rem}
textarea{width:100%;min-height:6rem}
button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:var(--accent);color:var(--bg);cursor:pointer}
ul.list{list-style:none;padding:0}
ul.list li{padding:.5rem 0;border-bottom:1px solid var(--line)}
section.category{background:var(--card);border-radius:.5rem;padding:.25rem 1rem;margin:1rem 0}
.tags{display:flex;gap:.5rem;flex-wrap:wrap;list-style:none;padding:0}
.tags li{background:var(--card);border-radius:1rem;padding:0 .75rem;font-size:.875rem}
article pre{overflow:auto;background:var(--card);padding:.75rem;border-radius:.375rem}
article img{max-width:100%}
article table{border-collapse:collapse}
article td,article th{border:1px solid var(--line);padding:.25rem .5rem}
fieldset{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0}
.choices label{display:block;padding:.25rem 0}
nav.pages{display:flex;gap:1rem}
`.trim()

const CSS_HASH = `'sha256-${createHash('sha256').update(PUBLIC_PAGE_CSS).digest('base64')}'`

/** No script at all, the one inline stylesheet by its hash, images of the page's origin or https (an article's), forms to itself only. */
export const PUBLIC_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${CSS_HASH}`,
  "img-src 'self' https:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export interface PageMeta {
  lang: string
  title: string
  description: string
  /** the page's own path (and query), relative to the public origin: canonical and og:url */
  canonical?: string | undefined
  /** og:site_name and the header's brand */
  siteName: string
  /** where the brand links to */
  home?: string | undefined
  /** `noindex` for pages no search engine should keep (a survey, an error) */
  robots?: string | undefined
  /** after the brand in the header (a search form, a language switch) */
  headerExtra?: SafeHtml | undefined
  footer?: SafeHtml | undefined
}

/** A complete document: lang, title, description, canonical, Open Graph, the stylesheet, the body. */
export function htmlDocument(meta: PageMeta, body: SafeHtml): string {
  const page = html`<!doctype html>
<html lang="${meta.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${meta.title}</title>
<meta name="description" content="${meta.description}">
${meta.robots ? html`<meta name="robots" content="${meta.robots}">` : ''}
${meta.canonical ? html`<link rel="canonical" href="${meta.canonical}">` : ''}
<meta property="og:type" content="website">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:site_name" content="${meta.siteName}">
<meta property="og:locale" content="${meta.lang.replace('-', '_')}">
${meta.canonical ? html`<meta property="og:url" content="${meta.canonical}">` : ''}
<style>${trustedHtml(PUBLIC_PAGE_CSS)}</style>
</head>
<body>
<header>${meta.home ? html`<a class="brand" href="${meta.home}">${meta.siteName}</a>` : html`<span class="brand">${meta.siteName}</span>`}${meta.headerExtra}</header>
<main id="main">
${body}
</main>
${meta.footer ? html`<footer>${meta.footer}</footer>` : ''}
</body>
</html>
`
  return page.value
}

/** Sends a page with its status and the public pages' headers. */
export function sendHtml(reply: FastifyReply, status: number, document: string, opts: { cache?: string } = {}) {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PUBLIC_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': opts.cache ?? 'no-store',
      vary: 'accept-language',
    })
    .send(document)
}

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',', 1)[0]?.trim()

/**
 * The origin the client addressed (for canonical links and sitemaps): the gateway's `x-forwarded-proto` and
 * `x-forwarded-host` (it sets both and drops the client's own), else the request's; undefined when the host is not
 * a plain host name or address — then pages link relatively.
 */
export function publicOrigin(request: FastifyRequest): string | undefined {
  const proto = first(request.headers['x-forwarded-proto'])?.toLowerCase() ?? request.protocol
  const host = first(request.headers['x-forwarded-host']) ?? request.headers.host
  if ((proto !== 'http' && proto !== 'https') || !host || !HOST.test(host)) return undefined
  return `${proto}://${host.toLowerCase()}`
}
