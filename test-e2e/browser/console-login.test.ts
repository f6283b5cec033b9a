// The console's login in a real browser (Debian's Chromium) against the embedded default: wrong credentials are
// refused in words, the seeded agent logs in, a reload keeps the session (the refresh cookie; the access token
// lives in memory only and nothing secret in web storage), log out ends it for good; a session revoked elsewhere logs
// the console out by itself; an account with two
// workspaces chooses one; axe on the login page and the signed-in shell. Every wait is on a role, a name or a text.
import t from 'tap'
import { login } from '../harness/auth.ts'
import { conversationsKit } from '../harness/conversations-kit.ts'
import { client } from '../harness/http.ts'
import {
  checkAxe,
  consoleSystem,
  launchBrowser,
  loginAs,
  newPage,
  shellReady,
  submitLogin,
  WAIT_MS,
} from './harness.ts'

const system = await consoleSystem(t)
const browser = await launchBrowser(t)

t.test('wrong credentials are refused in words, on an accessible login page', async (t) => {
  const page = await newPage(t, browser, system)
  await page.goto('/')
  await page.getByRole('heading', { name: 'Log in to Switchboard' }).waitFor({ timeout: WAIT_MS })
  await checkAxe(t, page, 'the login page')
  await submitLogin(page, { username: system.agent.username, password: 'not-the-password' })
  const alert = page.getByRole('alert')
  await alert.filter({ hasText: 'The username or password is not right.' }).waitFor({ timeout: WAIT_MS })
  t.pass('the refusal is shown in words')
  t.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0, 'not signed in')
})

t.test('log in, reload stays logged in, log out ends the session', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  await page.getByText(/^Signed in as /).waitFor({ timeout: WAIT_MS })
  t.pass('signed in as the seeded agent, hub connected')

  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))
  t.notMatch(storage, /eyJ/, 'no token in web storage')
  const cookies = await page.context().cookies()
  const refresh = cookies.find((c) => c.name === 'switchboard_refresh')
  t.ok(refresh?.httpOnly, 'the refresh token is an HttpOnly cookie')
  t.equal(refresh?.sameSite, 'Strict', 'SameSite=Strict')
  t.equal(refresh?.path, '/api/v1/auth', 'scoped to the auth path')

  await page.reload()
  await shellReady(page)
  t.pass('a reload keeps the agent logged in')

  await page.getByRole('button', { name: 'Log out' }).click()
  await page.getByRole('heading', { name: 'Log in to Switchboard' }).waitFor({ timeout: WAIT_MS })
  t.pass('log out shows the login page')
  await page.reload()
  await page.getByRole('heading', { name: 'Log in to Switchboard' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0, 'after a reload too: the session is over')
  const after = await page.context().cookies()
  t.notOk(
    after.some((c) => c.name === 'switchboard_refresh' && c.value),
    'the refresh cookie is gone',
  )
})

t.test('a session revoked elsewhere logs the console out within seconds', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  // the same agent elsewhere ends every other session of theirs: the console's is one
  const api = client(system.url)
  const other = await login(api, system.agent.username, system.agent.password)
  const r = await api.post('/api/v1/auth/sessions/logout-others', {}, { token: other.token })
  t.equal(r.status, 200, 'logout-others')
  await page.getByRole('heading', { name: 'Log in to Switchboard' }).waitFor({ timeout: WAIT_MS })
  t.pass('the console shows the login page without being touched')
  await page.reload()
  await page.getByRole('heading', { name: 'Log in to Switchboard' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0, 'a reload does not bring the session back')
})

t.test('an account with two workspaces chooses one at login', async (t) => {
  const kit = await conversationsKit(system)
  const first = kit.freshScope('alpha')
  const second = kit.freshScope('beta')
  const gina = await kit.agent(first, 'gina')
  await kit.agent(second, 'gina', { user: gina })

  const page = await newPage(t, browser, system)
  await page.goto('/')
  await submitLogin(page, gina)
  const chooser = page.getByRole('combobox', { name: 'Workspace' })
  await chooser.waitFor({ timeout: WAIT_MS })
  t.pass('the login asks which workspace')
  await chooser.selectOption(`${second.tenant_id}/${second.workspace_id}`)
  await page.getByRole('button', { name: 'Log in' }).click()
  await shellReady(page)
  await page.getByText(`Workspace ${second.tenant_id} / ${second.workspace_id}`).waitFor({ timeout: WAIT_MS })
  t.pass('logged in to the chosen workspace')
})

t.test('the admin logs in; the signed-in shell is accessible', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.admin)
  await page.getByRole('tab', { name: 'All' }).waitFor({ timeout: WAIT_MS })
  t.pass('admins get the All tab')
  await checkAxe(t, page, 'the inbox')
})

t.test('dark theme and Simplified Chinese: the shell follows, stays accessible, and keeps the choice', async (t) => {
  const page = await newPage(t, browser, system)
  await loginAs(page, system.agent)
  const theme = () => page.evaluate(() => (globalThis as any).document.documentElement.dataset.theme)
  t.equal(await theme(), 'light', 'the system preference (light here) by default')
  await page.getByRole('button', { name: 'Dark theme' }).click()
  t.equal(await theme(), 'dark', 'the toggle switches to dark')
  t.equal(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed'), 'true', 'pressed')
  await checkAxe(t, page, 'the inbox in the dark theme')

  await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN')
  await page.getByRole('button', { name: '退出登录' }).waitFor({ timeout: WAIT_MS })
  t.equal(await page.evaluate(() => (globalThis as any).document.documentElement.lang), 'zh-CN', 'the page language')
  await page.getByRole('tab', { name: '我的' }).waitFor({ timeout: WAIT_MS })
  t.pass('the inbox speaks Simplified Chinese')

  await page.reload()
  await page.getByRole('button', { name: '退出登录' }).waitFor({ timeout: WAIT_MS })
  t.equal(await theme(), 'dark', 'theme and language survive a reload')
})
