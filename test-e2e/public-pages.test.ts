// The server-rendered public pages end to end through the gateway, in both run modes: the help centre of a
// tenant/workspace (home, search, article, sitemap; only its public docs, everything else the same 404 page; hostile
// docs harmless; localized) rendered by ai-orchestrator, and the CSAT page (form, ?rating= preselected, a urlencoded
// POST answering the survey, thank-you, used 409, expired 410, unknown 404) rendered by tickets — each reached
// through the gateway's anonymous /help/ and /csat/ routes, never the console's fallback.
import { client } from './harness/http.ts'
import { inEachMode } from './harness/modes.ts'
import { HOSTILE_TITLE, publicPagesKit } from './harness/public-pages-kit.ts'

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }

/** A page as a browser asks for it, redirects not followed. */
async function fetchPage(base: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  const res = await fetch(new URL(path, base), {
    redirect: 'manual',
    ...init,
    headers: { ...HTML, ...init.headers },
    signal: AbortSignal.timeout(15_000),
  })
  return { status: res.status, headers: res.headers, body: await res.text() }
}

inEachMode('public pages', {}, async (t, system) => {
  const kit = await publicPagesKit(system)
  const { docs, home } = kit
  const api = client(system.url)
  const page = (path: string, init?: Parameters<typeof fetchPage>[2]) => fetchPage(system.url, path, init)
  const host = new URL(system.url).host

  t.test('help centre home: its public docs by topic, rendered by ai-orchestrator through the gateway', async (t) => {
    const res = await page(home)
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /^text\/html; charset=utf-8/)
    t.match(res.headers.get('content-security-policy'), /^default-src 'none'; style-src 'sha256-/)
    t.notMatch(res.body, /<script/i)
    t.match(res.body, /<html lang="en">/)
    t.match(res.body, `<link rel="canonical" href="http://${host}${home}">`, 'the address the client used')
    t.match(res.body, docs.reset.title)
    t.match(res.body, docs.hours.title)
    t.match(res.body, '&lt;/title&gt;&lt;script&gt;', 'the hostile title as text')
    t.notMatch(res.body, docs.internal.title, 'never a private doc')
    t.notMatch(res.body, docs.other.title, 'never another tenant’s')
    t.match(res.body, `<form class="search" role="search" method="get" action="${home}/search">`)
    t.notMatch(res.body, /<div id="root">/, 'not the console')
    const zh = await page(home, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })
    t.match(zh.body, /<html lang="zh-CN">/)
    t.match(zh.body, /<title>帮助中心<\/title>/)
  })

  t.test('search and an article; the article’s other addresses move to its one address', async (t) => {
    const found = await page(`${home}/search?q=${encodeURIComponent(`password ${kit.suffix}`)}`)
    t.equal(found.status, 200)
    const href = new RegExp(`href="(${home}/articles/${docs.reset.id}-[a-z0-9-]+)"`).exec(found.body)?.[1]
    t.ok(href, 'the result links the article')
    t.notMatch(found.body, docs.other.title)
    t.match((await page(`${home}/search?q=escalations`)).body, /No article matches/, 'a private doc is never found')

    const moved = await page(`${home}/articles/${docs.reset.id}`)
    t.equal(moved.status, 301)
    t.equal(moved.headers.get('location'), href)
    const article = await page(href!)
    t.equal(article.status, 200)
    t.match(article.body, `<h1>${docs.reset.title}</h1>`)
    t.match(article.body, /<p>Open <strong>Settings<\/strong>, then choose <em>Reset password<\/em>.<\/p>/)
    t.match(article.body, /<meta property="og:title" content="Reset your password [^"]+ · Help centre">/)

    const hostileHref = new RegExp(`href="(${home}/articles/${docs.hostile.id}[^"]*)"`).exec(
      (await page(home)).body,
    )?.[1]
    const hostile = await page(hostileHref!)
    t.equal(hostile.status, 200)
    t.notMatch(hostile.body, /<script|<img|<a href="javascript:/i, 'no script, image or javascript: link')
    t.equal(
      hostile.body.match(/onerror/g)?.length,
      hostile.body.match(/&lt;img src=x onerror/g)?.length,
      'onerror= only as escaped text',
    )
    t.equal(hostile.body.match(/<\/title>/g)?.length, 1)
    t.match(hostile.body, /\[click me\]\(javascript:alert\(2\)\)/)
    t.ok(
      hostile.body.includes(
        HOSTILE_TITLE.replaceAll('&', '&amp;')
          .replaceAll('<', '&lt;')
          .replaceAll('>', '&gt;')
          .replaceAll('"', '&quot;'),
      ),
    )
  })

  t.test('private, another tenant’s and missing docs: the same 404 page; the sitemap', async (t) => {
    const missing = await page(`${home}/articles/0190aaaa-0000-7000-8000-000000000000`)
    t.equal(missing.status, 404)
    t.match(missing.body, /<h1>Page not found<\/h1>/)
    for (const path of [`${home}/articles/${docs.internal.id}`, `${home}/articles/${docs.other.id}`]) {
      const res = await page(path)
      t.equal(res.status, 404, path)
      t.equal(res.body.replace(/\/help\/[^"?]*/g, ''), missing.body.replace(/\/help\/[^"?]*/g, ''), 'same words')
    }
    t.equal((await page(`${kit.otherHome}/articles/${docs.other.id}`)).status, 301, 'tenant B’s own centre has it')
    t.equal((await page('/help/nobody/nowhere')).status, 404)

    const map = await page(`${home}/sitemap.xml`)
    t.equal(map.status, 200)
    t.match(map.headers.get('content-type'), /^application\/xml/)
    t.match(map.body, `<loc>http://${host}${home}/articles/${docs.reset.id}-`)
    t.notMatch(map.body, new RegExp(`${docs.internal.id}|${docs.other.id}`))
  })

  t.test('CSAT page: ?rating=4 preselected, the form answers the survey, thank-you, then 409', async (t) => {
    const title = `Printer <b>jam</b> ${kit.suffix}`
    const { token, ticketId } = await kit.surveyToken(title)
    const form = await page(`/csat/${token}?rating=4`)
    t.equal(form.status, 200)
    t.match(form.headers.get('content-security-policy'), /default-src 'none'/)
    t.match(
      form.body,
      `About your request “Printer &lt;b&gt;jam&lt;/b&gt; ${kit.suffix}”, handled by ${kit.agentName}.`,
    )
    t.same(
      [...form.body.matchAll(/value="(\d)" required checked/g)].map((m) => m[1]),
      ['4'],
    )
    t.match(form.body, `<form method="post" action="/csat/${token}">`)

    const sent = await page(`/csat/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ rating: '4', comment: 'Fixed in minutes & friendly' }).toString(),
    })
    t.equal(sent.status, 303, sent.body)
    t.equal(sent.headers.get('location'), `/csat/${token}/thanks`)
    const thanks = await page(`/csat/${token}/thanks`)
    t.equal(thanks.status, 200)
    t.match(thanks.body, /<h1>Thank you!<\/h1>/)
    const rating = (await api.get(`/api/satisfactions?ticket_id=${ticketId}`, kit.asAdmin)).body.data[0]
    t.match(rating, { rating: 4, comment: 'Fixed in minutes & friendly', source: 'survey' })

    const used = await page(`/csat/${token}`)
    t.equal(used.status, 409)
    t.match(used.body, /already been answered/)
    const again = await page(`/csat/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'rating=1',
    })
    t.equal(again.status, 409)
    t.match((await api.get(`/public/csat/${token}`)).body, { status: 'completed' }, 'the JSON route agrees')
  })

  t.test('CSAT page: expired 410, unknown 404, a missing rating shows the form again', async (t) => {
    const { token, surveyId } = await kit.surveyToken(`Late ${kit.suffix}`)
    const noRating = await page(`/csat/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'zh-CN' },
      body: 'comment=hello',
    })
    t.equal(noRating.status, 400)
    t.match(noRating.body, /请选择 1 到 5 的评分/)
    await kit.expire(surveyId)
    const expired = await page(`/csat/${token}`)
    t.equal(expired.status, 410)
    t.match(expired.body, /<h1>This survey has expired<\/h1>/)
    const unknown = await page(`/csat/${'A'.repeat(43)}`)
    t.equal(unknown.status, 404)
    t.match(unknown.body, /<h1>Survey not found<\/h1>/)
    t.match(unknown.headers.get('content-type'), /^text\/html/)
  })
})
