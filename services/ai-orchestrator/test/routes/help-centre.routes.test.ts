import { createHash } from 'node:crypto'
import { inEachStorageMode } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { ACME, agent, aiApp, call, GLOBEX } from '../helpers/app.ts'

/** Every start tag of a page with its attributes, as a browser would read them (the escaped text has none). */
function tagsOf(page: string) {
  return [
    ...page.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g),
  ].map((m) => ({
    name: m[1]!.toLowerCase(),
    attrs: [...(m[2] ?? '').matchAll(/([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)].map((a) => ({
      name: a[1]!.toLowerCase(),
      value: (a[2] ?? '').replace(/^["']|["']$/g, ''),
    })),
  }))
}

/** No script, no event attribute, no script-bearing URL: what a hostile doc must never get into a page. */
function isHarmless(t: Test, page: string, what: string) {
  const tags = tagsOf(page)
  t.same(
    tags
      .filter((tag) => ['script', 'iframe', 'object', 'embed', 'svg', 'math', 'base', 'form'].includes(tag.name))
      .filter((tag) => !(tag.name === 'form' && tag.attrs.some((a) => a.name === 'role' && a.value === 'search'))),
    [],
    `${what}: no script-capable element`,
  )
  t.same(
    tags.flatMap((tag) => tag.attrs.filter((a) => a.name.startsWith('on'))),
    [],
    `${what}: no event attribute`,
  )
  t.same(
    tags.flatMap((tag) =>
      tag.attrs.filter(
        (a) =>
          ['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name) &&
          /^\s*(javascript|vbscript|data|file):/i.test(a.value.replace(/&#?\w+;/g, '')),
      ),
    ),
    [],
    `${what}: no javascript:/vbscript:/data:/file: URL`,
  )
  t.notMatch(page, /<script/i, `${what}: no <script anywhere`)
}

function checkHeaders(t: Test, res: { headers: Record<string, unknown>; body: string }) {
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/)
  const csp = String(res.headers['content-security-policy'])
  t.match(csp, /default-src 'none'/, 'nothing by default: no script at all')
  t.notMatch(csp, /unsafe-inline|unsafe-eval|script-src/, 'no inline script, no eval, no script source')
  t.match(csp, /frame-ancestors 'none'/)
  t.match(csp, /form-action 'self'/)
  const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? ''
  const hash = createHash('sha256').update(style).digest('base64')
  t.ok(csp.includes(`style-src 'sha256-${hash}'`), 'the one inline stylesheet is allowed by its hash')
  t.equal(res.headers['x-content-type-options'], 'nosniff')
}

const HOSTILE_TITLE = '</title><script>alert("t")</script> Refunds & "quotes" <b>bold</b>'
const HOSTILE_BODY = [
  '# Getting a refund',
  '',
  'Ask **support**. <script>alert("body")</script>',
  '',
  '<img src=x onerror=alert(1)> <svg onload=alert(2)></svg> <a href="javascript:alert(3)">raw link</a>',
  '',
  '[click](javascript:alert(4)) [mixed](JaVaScRiPt:alert(5)) [vb](vbscript:msgbox) [data](data:text/html;base64,PHNjcmlwdD4=)',
  '',
  '[spaced](  javascript:alert(6)) <javascript:alert(7)> ![img](javascript:alert(8)) ![x](data:image/png;base64,AA==)',
  '',
  '[quoted](https://example.com/a "x\\" onmouseover=\\"alert(9)") [ok](https://example.com/refunds)',
].join('\n')

inEachStorageMode(t, 'the help centre', async (t, mode) => {
  const { app } = await aiApp(t, mode)
  const write = async (who: ReturnType<typeof agent>, doc: Record<string, unknown>) => {
    const res = await call(app, who, 'POST', '/api/knowledge-docs', { is_public: true, ...doc })
    t.equal(res.statusCode, 201, res.body)
    return res.json() as { id: string; title: string }
  }
  const reset = await write(agent(ACME), {
    title: 'Reset your password',
    content: 'Open **Settings**, then choose *Reset password*.\n\n## Still stuck?\n\nWrite to us.',
    category: 'account',
    tags: ['password', 'login'],
  })
  const hostile = await write(agent(ACME), {
    title: HOSTILE_TITLE,
    content: HOSTILE_BODY,
    category: '"><script>alert("c")</script>',
    tags: ['<script>alert("tag")</script>'],
  })
  const hours = await write(agent(ACME), { title: 'Opening hours', content: 'From nine to five.' })
  const zh = await write(agent(ACME), { title: '如何申请退款', content: '在订单页面申请退款。', category: 'billing' })
  const internal = await write(agent(ACME), { title: 'Internal escalation list', content: 'secret', is_public: false })
  const globex = await write(agent(GLOBEX), { title: 'Globex reset password', content: 'Globex only' })

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
  const home = '/help/acme/support'
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'help.acme.test' }

  t.test(
    'home: the public docs of exactly this scope by topic, a search box, meta tags, readable without script',
    async (t) => {
      const res = await get(home, { ...forwarded, 'accept-language': 'en-GB,en;q=0.9' })
      t.equal(res.statusCode, 200)
      checkHeaders(t, res)
      t.match(res.headers['cache-control'], /max-age=60/)
      const page = res.body
      t.match(page, /^<!doctype html>\n<html lang="en">/)
      t.match(page, /<title>Help centre<\/title>/)
      t.match(page, /<meta name="description" content="Answers to common questions[^"]*">/)
      t.match(page, /<link rel="canonical" href="https:\/\/help\.acme\.test\/help\/acme\/support">/)
      t.match(page, /<meta property="og:url" content="https:\/\/help\.acme\.test\/help\/acme\/support">/)
      t.match(page, /<meta property="og:title" content="Help centre">/)
      t.match(page, /<form class="search" role="search" method="get" action="\/help\/acme\/support\/search">/)
      t.match(page, /<label for="q">Search the help centre<\/label>/)
      for (const topic of ['General', 'account', 'billing'])
        t.match(page, new RegExp(`<h3 id="topic-\\d+"><a [^>]*>${topic}</a>`))
      t.ok(page.indexOf('>General<') < page.indexOf('>account<'), 'general first')
      t.match(page, new RegExp(`href="/help/acme/support/articles/${reset.id}-reset-your-password"`))
      t.match(page, new RegExp(`href="/help/acme/support/articles/${zh.id}"`), 'a Chinese title: no slug')
      t.notMatch(page, /Internal escalation|Globex/, 'never a private doc or another scope’s')
      isHarmless(t, page, 'home')
      t.match(page, /&lt;\/title&gt;&lt;script&gt;/, 'the hostile title shows as text')
    },
  )

  t.test('localized: Accept-Language or ?lang=, which links then carry on', async (t) => {
    const zhPage = await get(home, { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' })
    t.match(zhPage.body, /<html lang="zh-CN">/)
    t.match(zhPage.body, /<title>帮助中心<\/title>/)
    t.match(zhPage.body, />常规</, 'the general topic in Chinese')
    t.match((await get(home, { 'accept-language': 'fr;q=1, zh;q=0.8' })).body, /<html lang="zh-CN">/)
    t.match((await get(home, { 'accept-language': 'fr' })).body, /<html lang="en">/, 'unsupported: English')
    const chosen = await get(`${home}?lang=en`, { 'accept-language': 'zh-CN' })
    t.match(chosen.body, /<html lang="en">/, '?lang= wins over the header')
    t.match(chosen.body, new RegExp(`href="/help/acme/support/articles/${reset.id}-reset-your-password\\?lang=en"`))
    t.match(chosen.body, /<input type="hidden" name="lang" value="en">/)
    t.match(chosen.body, /href="\/help\/acme\/support\?lang=zh-CN" hreflang="zh-CN" lang="zh-CN">简体中文</)
    t.equal(zhPage.headers.vary, 'accept-language')
  })

  t.test('an article: Markdown rendered safely under its canonical address', async (t) => {
    const url = `${home}/articles/${reset.id}-reset-your-password`
    const res = await get(url, forwarded)
    t.equal(res.statusCode, 200)
    checkHeaders(t, res)
    t.match(res.body, /<title>Reset your password · Help centre<\/title>/)
    t.match(res.body, /<meta name="description" content="Open Settings , then choose Reset password[^"]*">/)
    t.match(res.body, new RegExp(`<link rel="canonical" href="https://help.acme.test${url}">`))
    t.match(res.body, /<h1>Reset your password<\/h1>/)
    t.match(res.body, /<p>Open <strong>Settings<\/strong>, then choose <em>Reset password<\/em>.<\/p>/)
    t.match(res.body, /<h3>Still stuck\?<\/h3>/, 'the body’s headings sit under the title')
    t.match(res.body, /<ul class="tags"><li>password<\/li><li>login<\/li><\/ul>/)
    t.match(res.body, /<time datetime="[^"]+">Updated [A-Z][a-z]+ \d+, \d{4}<\/time>/)

    for (const other of [`${home}/articles/${reset.id}`, `${home}/articles/${reset.id}-old-title`]) {
      const moved = await get(`${other}?lang=zh-CN`)
      t.equal(moved.statusCode, 301, `${other}: to the one address`)
      t.equal(moved.headers.location, `${url}?lang=zh-CN`)
    }
    const zhArticle = await get(`${home}/articles/${zh.id}`, { 'accept-language': 'zh-CN' })
    t.equal(zhArticle.statusCode, 200)
    t.match(zhArticle.body, /更新于 \d{4}年\d+月\d+日/)
  })

  t.test('a hostile doc: no script, event handler or javascript: URL survives', async (t) => {
    const index = await get(home)
    const href = new RegExp(`href="(/help/acme/support/articles/${hostile.id}[^"]*)"`).exec(index.body)?.[1]
    t.ok(href, 'listed')
    const res = await get(href!.replaceAll('&amp;', '&'))
    t.equal(res.statusCode, 200)
    const page = res.body
    isHarmless(t, page, 'article')
    t.equal(page.match(/<\/title>/g)?.length, 1, 'one </title>: the title could not close it early')
    t.match(
      page,
      /<title>&lt;\/title&gt;&lt;script&gt;alert\(&quot;t&quot;\)&lt;\/script&gt; Refunds &amp; &quot;quotes&quot; &lt;b&gt;bold&lt;\/b&gt; · Help centre<\/title>/,
    )
    t.match(page, /<h1>&lt;\/title&gt;&lt;script&gt;/)
    t.match(page, /&lt;script&gt;alert\(&quot;body&quot;\)&lt;\/script&gt;/, 'raw HTML in the body is text')
    t.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/)
    t.match(page, /<li>&lt;script&gt;alert\(&quot;tag&quot;\)&lt;\/script&gt;<\/li>/, 'tags escaped')
    t.match(page, /&quot;&gt;&lt;script&gt;alert\(&quot;c&quot;\)&lt;\/script&gt;<\/a><\/nav>/, 'category escaped')
    t.match(
      page,
      /<a href="https:\/\/example.com\/refunds" rel="nofollow noopener noreferrer">ok<\/a>/,
      'a good link kept',
    )
    t.match(page, /\[click\]\(javascript:alert\(4\)\)/, 'a javascript: link stays text')
    t.notMatch(page, /<img[^>]+src="data:/, 'no data: image')
    t.match(page, /<h2>Getting a refund<\/h2>/)
  })

  t.test('not public, another scope’s, missing, unknown scope: the same 404 page', async (t) => {
    const missing = await get(`${home}/articles/0190aaaa-0000-7000-8000-000000000000`)
    t.equal(missing.statusCode, 404)
    checkHeaders(t, missing)
    t.match(missing.body, /<h1>Page not found<\/h1>/)
    t.match(missing.body, /<meta name="robots" content="noindex">/)
    t.equal(missing.headers['cache-control'], 'no-store')
    for (const url of [
      `${home}/articles/${internal.id}`,
      `${home}/articles/${globex.id}`,
      `/help/acme/sales/articles/${reset.id}`,
      `/help/globex/main/articles/${reset.id}`,
    ]) {
      const res = await get(url)
      t.equal(res.statusCode, 404, url)
      t.equal(res.body.replace(/\/help\/[^"?]*/g, ''), missing.body.replace(/\/help\/[^"?]*/g, ''))
    }
    t.equal((await get(`/help/globex/main/articles/${globex.id}`)).statusCode, 301, 'its own scope has it')
    for (const url of [
      '/help/nobody/here',
      '/help/acme/sales/search?q=reset',
      '/help/acme/support/nothing',
      '/help/x',
    ]) {
      const res = await get(url)
      t.equal(res.statusCode, 404, url)
      t.match(res.body, /<h1>Page not found<\/h1>/, `${url}: a page in words`)
    }
  })

  t.test('search: every word, public docs of this scope only, paged; bad input is a 400 page', async (t) => {
    const res = await get(`${home}/search?q=${encodeURIComponent('PASSWORD reset')}`)
    t.equal(res.statusCode, 200)
    checkHeaders(t, res)
    t.match(res.body, /<h1>Results for “PASSWORD reset”<\/h1>/)
    t.match(res.body, /<input type="search" id="q" name="q" value="PASSWORD reset"/)
    t.match(res.body, /1 article found/)
    t.match(res.body, /<meta name="robots" content="noindex">/)
    t.match(res.body, /Open Settings , then choose Reset password/, 'an excerpt in plain text')
    t.notMatch(res.body, /Globex/)
    t.match((await get(`${home}/search?q=secret`)).body, /No article matches/, 'never a private doc')
    t.match((await get(`${home}/search?q=${encodeURIComponent('退款')}`)).body, /如何申请退款/)
    const hostileQuery = await get(`${home}/search?q=${encodeURIComponent('"><script>alert(1)</script>')}`)
    t.equal(hostileQuery.statusCode, 200)
    isHarmless(t, hostileQuery.body, 'search for a script')
    t.match(hostileQuery.body, /value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/)
    t.match((await get(`${home}/search`)).body, /Type a few words/)
    const long = await get(`${home}/search?q=${'a'.repeat(201)}`)
    t.equal(long.statusCode, 400)
    t.match(long.body, /<h1>Request not understood<\/h1>/)
    t.match(long.headers['content-type'], /^text\/html/)
    t.equal((await get(`${home}/search?q=reset&page=0`)).statusCode, 400)
  })

  t.test('a topic page, and the sitemap with absolute addresses', async (t) => {
    const topic = await get(`${home}/categories/account`)
    t.equal(topic.statusCode, 200)
    t.match(topic.body, /<h1>account<\/h1>/)
    t.match(topic.body, /Reset your password/)
    t.notMatch(topic.body, /Opening hours/)
    t.equal((await get(`${home}/categories/nothing`)).statusCode, 404)

    const map = await get(`${home}/sitemap.xml`, forwarded)
    t.equal(map.statusCode, 200)
    t.match(map.headers['content-type'], /^application\/xml/)
    t.match(
      map.body,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    )
    t.match(map.body, /<url><loc>https:\/\/help.acme.test\/help\/acme\/support<\/loc><lastmod>/)
    t.match(
      map.body,
      new RegExp(
        `<loc>https://help.acme.test/help/acme/support/articles/${reset.id}-reset-your-password</loc><lastmod>`,
      ),
    )
    t.match(map.body, new RegExp(`articles/${hours.id}-opening-hours`))
    t.match(map.body, /<loc>https:\/\/help.acme.test\/help\/acme\/support\/categories\/billing<\/loc>/)
    t.notMatch(map.body, new RegExp(`${internal.id}|${globex.id}|<script`))
    t.equal((await get('/help/nobody/here/sitemap.xml')).statusCode, 404)
  })
})
