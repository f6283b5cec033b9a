import { createHash } from 'node:crypto'
import Fastify from 'fastify'
import t from 'tap'
import {
  escapeHtml,
  html,
  htmlDocument,
  PUBLIC_PAGE_CSP,
  PUBLIC_PAGE_CSS,
  pickLocale,
  publicOrigin,
  sendHtml,
  trustedHtml,
} from '../src/http/html-page.ts'

t.test('html escapes every value it is given; only trustedHtml passes through', async (t) => {
  const hostile = `</title><script>alert('x')</script>"&`
  t.equal(escapeHtml(hostile), '&lt;/title&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;')
  t.equal(
    html`<p title="${hostile}">${hostile}</p>`.value,
    `<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`,
  )
  t.equal(html`<ul>${['<a>', html`<li>${'<b>'}</li>`]}</ul>`.value, '<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>', 'arrays')
  t.equal(html`${null}${undefined}${false}${0}`.value, '0', 'nothing for null, undefined, false')
  t.equal(html`${trustedHtml('<em>ok</em>')}`.value, '<em>ok</em>')
  t.equal(html`${{ value: '<script>' } as never}`.value, '[object Object]', 'a look-alike object is not trusted')
})

t.test('a document: meta tags escaped, the stylesheet allowed by its hash and nothing else', async (t) => {
  const doc = htmlDocument(
    {
      lang: 'zh-CN',
      title: '</title><script>x</script>',
      description: '" onload="x',
      canonical: 'https://h.test/p?a=1&b=2',
      siteName: 'S<i>',
      home: '/home',
    },
    html`<p>${'body'}</p>`,
  )
  t.match(doc, /^<!doctype html>\n<html lang="zh-CN">/)
  t.match(doc, '<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>')
  t.match(doc, '<meta name="description" content="&quot; onload=&quot;x">')
  t.match(doc, '<link rel="canonical" href="https://h.test/p?a=1&amp;b=2">')
  t.match(doc, '<meta property="og:locale" content="zh_CN">')
  t.match(doc, '<a class="brand" href="/home">S&lt;i&gt;</a>')
  t.notMatch(doc, /<script/)
  const hash = createHash('sha256').update(PUBLIC_PAGE_CSS).digest('base64')
  t.ok(doc.includes(`<style>${PUBLIC_PAGE_CSS}</style>`))
  t.equal(
    PUBLIC_PAGE_CSP,
    `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self' https:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  )
})

t.test('pickLocale: ?lang= first, then Accept-Language by weight and language, then the first', async (t) => {
  const L = ['en', 'zh-CN'] as const
  const cases: Array<[string | undefined, string | undefined, string]> = [
    [undefined, undefined, 'en'],
    ['zh-CN,zh;q=0.9', undefined, 'zh-CN'],
    ['zh-TW', undefined, 'zh-CN'],
    ['fr, zh;q=0.5, en;q=0.8', undefined, 'en'],
    ['en;q=0, zh', undefined, 'zh-CN'],
    ['fr', undefined, 'en'],
    ['zh-CN', 'en', 'en'],
    ['en', 'ZH-cn', 'zh-CN'],
    ['zh-CN', 'xx', 'zh-CN'],
    [`${'a,'.repeat(5000)}zh`, undefined, 'en'],
    ['en;q=abc, zh', undefined, 'zh-CN'],
  ]
  for (const [header, lang, want] of cases) t.equal(pickLocale(L, header, lang), want, `${header} / ${lang}`)
})

t.test('publicOrigin and sendHtml through a real request', async (t) => {
  const app = Fastify()
  app.get('/o', async (request) => ({ origin: publicOrigin(request) ?? null }))
  app.get('/p', (_request, reply) => sendHtml(reply, 404, '<!doctype html><p>x</p>'))
  const origin = async (headers: Record<string, string>) =>
    (await app.inject({ url: '/o', headers })).json().origin as string | null
  t.equal(await origin({ host: 'a.test:8080' }), 'http://a.test:8080')
  t.equal(
    await origin({ host: 'a.test', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'Help.Example.com' }),
    'https://help.example.com',
  )
  t.equal(
    await origin({ host: 'a.test', 'x-forwarded-host': 'evil.test/"><script>' }),
    null,
    'not a host: relative links',
  )
  t.equal(await origin({ host: 'a.test', 'x-forwarded-proto': 'javascript' }), null)
  t.equal(await origin({ host: '[::1]:8080' }), 'http://[::1]:8080')
  const res = await app.inject({ url: '/p' })
  t.equal(res.statusCode, 404)
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(res.headers['content-security-policy'], PUBLIC_PAGE_CSP)
  t.equal(res.headers['x-frame-options'], 'DENY')
  t.equal(res.headers['cache-control'], 'no-store')
})
