// The admin area's Knowledge section in a real browser (Debian's Chromium) against the embedded default: an admin
// writes a knowledge doc in Markdown and reads the live preview, marks it public and the help centre serves it
// (fetched at /help/<tenant>/<workspace>/articles/<id>), edits it, deletes it; creates a macro that GET /api/macros
// then lists; hostile Markdown in the preview runs nothing (every dialog recorded: none) and puts no javascript:
// link nor any <img> in the page; an agent sees no Knowledge link, the typed address says "Not permitted", and the API
// refuses the agent's writes. axe on each page. Every wait is on a role, a name or a text: no sleeps, no retries.

import { randomBytes } from 'node:crypto'
import t from 'tap'
import { login } from '../harness/auth.ts'
import { client, until } from '../harness/http.ts'
import { checkAxe, consoleSystem, launchBrowser, loginAs, newPage, WAIT_MS } from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)
const api = client(system.url)
const suffix = randomBytes(3).toString('hex')
const admin = await login(api, system.admin.username, system.admin.password)
const agent = await login(api, system.agent.username, system.agent.password)

t.test('an admin writes a doc with a preview, publishes it to the help centre, edits and deletes it', async (t) => {
  const me = await api.get('/api/v1/auth/me', { token: admin.token })
  const scope = me.body.user ?? me.body
  t.ok(scope.tenant_id && scope.workspace_id, 'the admin works in a workspace')
  const page = await newPage(t, browser, system)
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  await loginAs(page, system.admin)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Knowledge' }).click()
  await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/knowledge')
  await page.getByRole('heading', { name: 'Knowledge docs' }).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the knowledge docs')

  await page.getByRole('link', { name: 'New doc' }).click()
  const form = page.getByRole('form', { name: 'Knowledge doc' })
  await form.waitFor({ timeout: WAIT_MS })
  const title = `Resetting a password ${suffix}`
  await form.getByRole('textbox', { name: 'Title' }).fill(title)
  await form.getByRole('textbox', { name: 'Category' }).fill('accounts')
  const markdown = [
    '## Steps',
    '',
    'Open **Settings** and choose *Security*.',
    '',
    '- one',
    '- two',
    '',
    'See [the guide](https://example.com/guide).',
    '',
    '<img src=x onerror=alert(1)> and [x](javascript:alert(1)) and [y]( JaVaScRiPt:alert(2)) and ![i](x)',
    '<script>alert(3)</script>',
  ].join('\n')
  await form.getByRole('textbox', { name: 'Content (Markdown)' }).fill(markdown)
  const preview = page.getByRole('region', { name: 'Preview' })
  await preview.getByRole('heading', { name: 'Steps' }).waitFor({ timeout: WAIT_MS })
  t.equal(await preview.locator('strong').textContent(), 'Settings', 'bold rendered')
  t.equal(await preview.locator('em').textContent(), 'Security', 'italic rendered')
  t.equal(await preview.getByRole('listitem').count(), 2, 'the list rendered')
  t.equal(
    await preview.getByRole('link', { name: 'the guide' }).getAttribute('href'),
    'https://example.com/guide',
    'a safe link is a link',
  )
  t.equal(await preview.getByRole('link').count(), 1, 'the javascript: links are not links')
  t.equal(await preview.locator('img, script').count(), 0, 'no image nor script element from the Markdown')
  await preview.getByText('<img src=x onerror=alert(1)>', { exact: false }).waitFor({ timeout: WAIT_MS })
  await preview.getByText('[x](javascript:alert(1))', { exact: false }).waitFor({ timeout: WAIT_MS })
  t.equal(
    await page.locator('a[href^="javascript"], a[href*="script:" i]').count(),
    0,
    'no javascript: href in the page',
  )
  t.same(dialogs, [], 'the hostile Markdown ran nothing (no alert)')
  await checkAxe(t, page, 'the doc editor with its preview')

  await form.getByRole('checkbox', { name: 'Public (shown in the help centre)' }).check()
  await form.getByRole('button', { name: 'Save doc' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved. Sync: Local only' }).waitFor({ timeout: WAIT_MS })
  await page.getByRole('heading', { name: `Edit: ${title}` }).waitFor({ timeout: WAIT_MS })
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
  const stored = await api.get(`/api/knowledge-docs/${id}`, { token: admin.token })
  t.equal(stored.status, 200, stored.text)
  t.equal(stored.body.content, markdown, 'the Markdown stored as typed')
  t.equal(stored.body.is_public, true, 'public')

  const helpLink = page.getByRole('link', { name: 'Open in the help centre' })
  const href = await helpLink.getAttribute('href')
  t.equal(href, `/help/${scope.tenant_id}/${scope.workspace_id}/articles/${id}`, 'the help-centre address')
  const article = await fetch(new URL(href!, system.url))
  const html = await article.text()
  t.equal(article.status, 200, 'the help centre serves the public doc')
  t.match(html, title, 'with its title')
  t.match(html, '<strong>Settings</strong>', 'its Markdown rendered')
  t.notMatch(html, /<img[^>]*onerror/i, 'the hostile tag stays text there too')
  t.notMatch(html, /href="\s*javascript:/i, 'and no javascript: link')

  // the list shows it public, with its sync status
  await page.getByRole('link', { name: 'Back to the knowledge docs' }).click()
  const row = page.getByRole('table', { name: 'Knowledge docs' }).getByRole('row').filter({ hasText: title })
  await row.waitFor({ timeout: WAIT_MS })
  t.match(await row.textContent(), /Public.*Local only/, 'public and local only (no provider configured)')

  // edit: private again, a new title
  await row.getByRole('link', { name: title }).click()
  await form.getByRole('textbox', { name: 'Title' }).waitFor({ timeout: WAIT_MS })
  await until(
    'the form filled',
    async () => (await form.getByRole('textbox', { name: 'Title' }).inputValue()) === title,
  )
  await form.getByRole('textbox', { name: 'Title' }).fill(`${title} v2`)
  await form.getByRole('checkbox', { name: 'Public (shown in the help centre)' }).uncheck()
  await form.getByRole('button', { name: 'Save doc' }).click()
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: WAIT_MS })
  const edited = await until('the edit stored', async () => {
    const res = await api.get(`/api/knowledge-docs/${id}`, { token: admin.token })
    return res.body.title === `${title} v2` ? res.body : undefined
  })
  t.equal(edited.is_public, false, 'no longer public')
  t.equal((await fetch(new URL(href!, system.url))).status, 404, 'the help centre no longer shows it')
  t.equal(await page.getByRole('link', { name: 'Open in the help centre' }).count(), 0, 'no help-centre link')

  // delete (confirmed in place)
  await form.getByRole('button', { name: 'Delete doc' }).click()
  await page.getByText(`Delete "${title} v2"? This cannot be undone.`).waitFor({ timeout: WAIT_MS })
  await form.getByRole('button', { name: 'Delete doc' }).click()
  await page.getByRole('heading', { name: 'Knowledge docs' }).waitFor({ timeout: WAIT_MS })
  t.equal(new URL(page.url()).pathname, '/admin/knowledge/docs')
  t.equal((await api.get(`/api/knowledge-docs/${id}`, { token: admin.token })).status, 404, 'deleted')
  t.same(dialogs, [], 'no dialog or alert at any point')
})

t.test('an admin creates, edits and deletes a macro', async (t) => {
  const page = await newPage(t, browser, system)
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  await loginAs(page, system.admin, '/admin/knowledge/macros')
  await page.getByRole('heading', { name: 'Macros', level: 2 }).waitFor({ timeout: WAIT_MS })
  await page.getByRole('button', { name: 'New macro' }).click()
  const form = page.getByRole('form', { name: 'Macro' })
  const name = `Greeting ${suffix}`
  await form.getByRole('textbox', { name: 'Name' }).fill(name)
  await form.getByRole('textbox', { name: 'Reply text' }).fill('Hello {{customer.name}}, <b>thanks</b>!')
  await form.getByRole('button', { name: 'Save macro' }).click()
  const table = page.getByRole('table', { name: 'Macros' })
  await table.getByRole('rowheader', { name }).waitFor({ timeout: WAIT_MS })
  const listed = await api.get(`/api/macros?search=${encodeURIComponent(name)}`, { token: admin.token })
  t.equal(listed.status, 200, 'GET /api/macros answers')
  const macro = (listed.body.data as any[]).find((m) => m.name === name)
  t.ok(macro, 'GET /api/macros lists it')
  t.equal(macro.content, 'Hello {{customer.name}}, <b>thanks</b>!', 'with its text')
  t.equal(await table.locator('b').count(), 0, 'the text shown as text')
  await checkAxe(t, page, 'the macros')

  await table.getByRole('button', { name: `Edit ${name}` }).click()
  await form.getByRole('checkbox', { name: 'Active' }).uncheck()
  await form.getByRole('button', { name: 'Save macro' }).click()
  await form.waitFor({ state: 'detached', timeout: WAIT_MS })
  const edited = await until('the edit stored', async () => {
    const res = await api.get(`/api/macros/${macro.id}`, { token: admin.token })
    return res.body.active === false ? res.body : undefined
  })
  t.equal(edited.name, name)

  await table.getByRole('button', { name: `Delete ${name}` }).click()
  await table.getByRole('button', { name: `Delete ${name}` }).click()
  await table.getByRole('rowheader', { name }).waitFor({ state: 'detached', timeout: WAIT_MS })
  t.equal((await api.get(`/api/macros/${macro.id}`, { token: admin.token })).status, 404, 'deleted')
  t.same(dialogs, [], 'no dialog')
})

t.test('an agent sees no Knowledge link; the address says not permitted and the API refuses writes', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const rail = page.getByRole('navigation', { name: 'Console' })
  await rail.getByRole('link', { name: 'Tickets' }).waitFor({ timeout: WAIT_MS })
  t.equal(await rail.getByRole('link', { name: 'Knowledge' }).count(), 0, 'no Knowledge link')
  for (const path of ['/admin/knowledge', '/admin/knowledge/macros', '/admin/knowledge/docs/new']) {
    await page.goto(path)
    await page.getByRole('heading', { name: 'Not permitted' }).waitFor({ timeout: WAIT_MS })
    t.equal(await page.getByRole('textbox').count(), 0, `${path}: nothing of the screen shown`)
  }
  await checkAxe(t, page, 'not permitted for an agent')
  const doc = await api.post('/api/knowledge-docs', { title: 'x', content: 'y' }, { token: agent.token })
  t.equal(doc.status, 403, 'the API refuses the agent a doc')
  const macro = await api.post('/api/macros', { name: `m${suffix}`, content: 'y' }, { token: agent.token })
  t.equal(macro.status, 403, 'and a macro')
})
