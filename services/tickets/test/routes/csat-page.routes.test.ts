import { createHash } from 'node:crypto'
import { inEachStorageMode, waitFor } from '@switchboard/testing'
import t, { type Test } from 'tap'
import { streamEvents } from '../helpers/bus.ts'
import { ACME, knownAgent, knownCustomer, slaApp } from '../helpers/sla.ts'

const HOSTILE_TITLE = '</title><script>alert("t")</script> Printer & "paper"'
const HOSTILE_AGENT = '<img src=x onerror=alert(1)>Agnes'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

function pageHeaders(t: Test, res: { headers: Record<string, unknown>; body: string }) {
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/)
  const csp = String(res.headers['content-security-policy'])
  t.match(csp, /default-src 'none'/, 'no script at all')
  t.notMatch(csp, /unsafe-inline|script-src/)
  t.match(csp, /form-action 'self'/)
  const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? ''
  t.ok(csp.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`), 'the stylesheet by its hash')
  t.equal(res.headers['referrer-policy'], 'no-referrer', 'the token in the address goes nowhere else')
  t.equal(res.headers['cache-control'], 'no-store')
  t.match(res.body, /<meta name="robots" content="noindex">/)
}

const checked = (body: string) =>
  [...body.matchAll(/<input type="radio" name="rating" value="(\d)" required checked>/g)].map((m) => m[1])

inEachStorageMode(t, 'the CSAT page', async (t, mode) => {
  const { app, svc, call } = await slaApp(t, mode)
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann' })
  await knownAgent(svc, ACME, { user_id: 'agent-7', name: HOSTILE_AGENT })

  /** A closed ticket's survey token, from the link its survey.sent event carries. */
  const closedTicket = async (title = 'Broken printer', agent: string | null = 'agent-7') => {
    const tk = (await call('POST', '/api/tickets', { title, customer_id: 'cust-1' })).json()
    if (agent) await call('POST', `/api/tickets/${tk.id}/assign`, { agent_id: agent })
    t.equal((await call('POST', `/api/tickets/${tk.id}/close`, {})).statusCode, 200)
    const [sent] = await waitFor(async () => {
      const found = (await streamEvents(svc.bus, 'TICKETS')).filter(
        (e) => e.subject === 'tickets.survey.sent' && (e.envelope.data as { ticket_id: string }).ticket_id === tk.id,
      )
      return found.length > 0 ? found : undefined
    })
    const link = (sent!.envelope.data as { link: string }).link
    return { ticket: tk as { id: string }, token: link.split('/').pop()!, link }
  }
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
  const post = (url: string, form: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: form, headers: { ...FORM, ...headers } })

  t.test('the survey: title and agent escaped, five labelled choices, a plain form; ?rating= preselects', async (t) => {
    const { token, link } = await closedTicket(HOSTILE_TITLE)
    t.equal(link, `/csat/${token}`, 'the link the customer is sent is this page')
    const res = await get(link, { 'accept-language': 'en-US' })
    t.equal(res.statusCode, 200)
    pageHeaders(t, res)
    const page = res.body
    t.match(page, /<html lang="en">/)
    t.match(page, /<title>How did we do\? · Customer survey<\/title>/)
    t.equal(page.match(/<\/title>/g)?.length, 1, 'the ticket title cannot close the title')
    t.match(
      page,
      '<p>About your request “&lt;/title&gt;&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; Printer &amp; &quot;paper&quot;”, handled by &lt;img src=x onerror=alert(1)&gt;Agnes.</p>',
    )
    t.notMatch(page, /<script|<img/i, 'no script, no image')
    t.match(page, `<form method="post" action="/csat/${token}">`)
    t.match(page, /<legend>How satisfied are you with the help you received\?<\/legend>/)
    const labels = [
      ...page.matchAll(/<label><input type="radio" name="rating" value="(\d)" required> \d – ([^<]+)<\/label>/g),
    ]
    t.same(
      labels.map((m) => [m[1], m[2]]),
      [
        ['1', 'Very dissatisfied'],
        ['2', 'Dissatisfied'],
        ['3', 'Neither satisfied nor dissatisfied'],
        ['4', 'Satisfied'],
        ['5', 'Very satisfied'],
      ],
    )
    t.match(page, /<label for="comment">[^<]+<\/label><\/p>\n<textarea id="comment" name="comment" maxlength="2000"/)
    t.same(checked((await get(`/csat/${token}?rating=4`)).body), ['4'], '?rating=4: that choice chosen')
    for (const odd of ['9', '0', 'x', '4.5']) {
      const r = await get(`/csat/${token}?rating=${odd}`)
      t.equal(r.statusCode, 200, `?rating=${odd} is just not preselected`)
      t.same(checked(r.body), [])
    }
    const zh = await get(`/csat/${token}?rating=5&lang=zh-CN`)
    t.match(zh.body, /<html lang="zh-CN">/)
    t.match(zh.body, /非常满意/)
    t.match(zh.body, `action="/csat/${token}?lang=zh-CN"`, 'the chosen language sticks through the form')
    t.match((await get(`/csat/${token}`, { 'accept-language': 'zh-CN,zh;q=0.9' })).body, /我们的服务如何/)
  })

  t.test('answered by the form: 303 to the thank-you page, stored once; the link then answers 409', async (t) => {
    const { ticket, token } = await closedTicket()
    const missing = await post(`/csat/${token}`, 'comment=%3Cb%3Every%20good%3C%2Fb%3E')
    t.equal(missing.statusCode, 400, 'no rating: the form again')
    t.match(missing.body, /<p role="alert" id="form-error"><strong>Please choose a rating from 1 to 5.<\/strong><\/p>/)
    t.match(
      missing.body,
      /maxlength="2000" aria-describedby="comment-hint">&lt;b&gt;very good&lt;\/b&gt;<\/textarea>/,
      'kept',
    )
    t.equal((await post(`/csat/${token}`, 'rating=7')).statusCode, 400)
    const long = await post(`/csat/${token}`, `rating=2&comment=${'a'.repeat(2001)}`)
    t.equal(long.statusCode, 400)
    t.match(long.body, /at most 2000 characters/)
    t.same(checked(long.body), ['2'], 'the rating sent stays chosen')
    t.match((await get(`/public/csat/${token}`)).json(), { status: 'sent' }, 'nothing stored by a refused answer')

    const early = await get(`/csat/${token}/thanks`)
    t.equal(early.statusCode, 303, 'no thanks before an answer')
    t.equal(early.headers.location, `/csat/${token}`)

    const sent = await post(`/csat/${token}?lang=zh-CN`, 'rating=4&comment=Quick+and+kind+%26+clear')
    t.equal(sent.statusCode, 303, sent.body)
    t.equal(sent.headers.location, `/csat/${token}/thanks?lang=zh-CN`)
    const thanks = await get(sent.headers.location as string)
    t.equal(thanks.statusCode, 200)
    pageHeaders(t, thanks)
    t.match(thanks.body, /<h1>谢谢！<\/h1>/)
    t.match((await get(`/csat/${token}/thanks`)).body, /<h1>Thank you!<\/h1>/)
    const stored = (await call('GET', `/api/satisfactions?ticket_id=${ticket.id}`)).json()
    t.equal(stored.total, 1)
    t.match(stored.data[0], { rating: 4, comment: 'Quick and kind & clear', source: 'survey', agent_id: 'agent-7' })

    const used = await get(`/csat/${token}?rating=5`)
    t.equal(used.statusCode, 409)
    pageHeaders(t, used)
    t.match(used.body, /<h1>This survey has already been answered<\/h1>/)
    t.notMatch(used.body, /<form/)
    const again = await post(`/csat/${token}`, 'rating=1')
    t.equal(again.statusCode, 409, 'a second answer is refused, in words')
    t.match(again.body, /already been answered/)
    t.equal((await call('GET', `/api/satisfactions?ticket_id=${ticket.id}`)).json().data[0].rating, 4, 'kept')
  })

  t.test('two forms racing: one answer stored, the other the 409 page', async (t) => {
    const { ticket, token } = await closedTicket('Race', null)
    const answers = await Promise.all(['rating=1', 'rating=5'].map((form) => post(`/csat/${token}`, form)))
    t.same(answers.map((a) => a.statusCode).sort(), [303, 409])
    t.equal((await call('GET', `/api/satisfactions?ticket_id=${ticket.id}`)).json().total, 1)
  })

  t.test('expired 410, unknown 404: pages in words with that status', async (t) => {
    const { ticket, token } = await closedTicket('Old request', null)
    const plain = await get(`/csat/${token}`)
    t.match(plain.body, /<p>About your request “Old request”.<\/p>/, 'no agent: no name')
    await svc.db
      .updateTable('satisfaction_surveys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('ticket_id', '=', ticket.id)
      .execute()
    for (const res of [await get(`/csat/${token}`), await post(`/csat/${token}`, 'rating=3')]) {
      t.equal(res.statusCode, 410)
      pageHeaders(t, res)
      t.match(res.body, /<h1>This survey has expired<\/h1>/)
    }
    t.match((await get(`/csat/${token}`, { 'accept-language': 'zh-CN' })).body, /此调查已过期/)
    t.equal((await call('GET', `/api/satisfactions?ticket_id=${ticket.id}`)).json().total, 0)

    const unknown = `/csat/${'A'.repeat(43)}`
    for (const res of [
      await get(unknown),
      await post(unknown, 'rating=3'),
      await post(unknown, 'comment=no+rating'),
      await get(`${unknown}/thanks`),
      await get('/csat/x/y/z'),
    ]) {
      t.equal(res.statusCode, 404)
      t.match(res.body, /<h1>Survey not found<\/h1>/)
      t.match(res.headers['content-type'], /^text\/html/)
    }
    const tooLong = await get(`${unknown}?lang=${'x'.repeat(40)}`)
    t.equal(tooLong.statusCode, 400, 'an address the page does not take: 400, in words')
    t.match(tooLong.body, /<h1>Answer not understood<\/h1>/)
  })
})
