// The admin screens of the README's screenshots: Reports (the dashboard) and the governed Configuration, for the demo
// administrator. `seedAdmin` adds to demo.ts's workspace what makes the reports' charts say something — tickets in
// several categories and priorities (some resolved and rated, two past an SLA that the monitor records as breached),
// customers from several sources — and one governed change, so the configuration's history has an entry; it waits
// until statistics has projected all of it. `adminShots` logs the admin in and takes both pages in one theme.
import type { Browser, Page } from 'playwright-core'
import { loginAs, WAIT_MS } from '../browser/harness.ts'
import { login } from '../harness/auth.ts'
import { must } from '../harness/conversations-kit.ts'
import { type CallOptions, type Client, until } from '../harness/http.ts'
import type { System } from '../harness/system.ts'
import { createTicket } from '../harness/tickets-kit.ts'

const TICKETS: ReadonlyArray<readonly [title: string, category: string, priority: string, rating?: number]> = [
  ['Refund for a double charge on order #48102', 'billing', 'high', 5],
  ['Invoice shows the old company name', 'billing', 'normal', 4],
  ['Card declined at checkout though funds are available', 'billing', 'urgent'],
  ['VAT ID missing on the March invoice', 'billing', 'low', 5],
  ['Parcel marked delivered but not received', 'shipping', 'high', 2],
  ['Change the delivery address after dispatch', 'shipping', 'normal', 4],
  ['Customs fees charged on an EU delivery', 'shipping', 'normal'],
  ['Two-factor codes arrive late by SMS', 'account', 'high', 3],
  ['Merge two customer accounts', 'account', 'low', 5],
  ['Export of order history times out', 'technical', 'normal', 4],
  ['Push notifications stopped on iOS 18', 'technical', 'urgent'],
]

const SOURCES: ReadonlyArray<readonly [name: string, source: string]> = [
  ['Olivia Brown', 'widget'],
  ['Noah Schmidt', 'widget'],
  ['Lena Novak', 'widget'],
  ['Mateo García', 'email'],
  ['Yuki Sato', 'email'],
  ['Ines Duarte', 'phone'],
]

/** Tickets, ratings, an SLA breach, customers by source and a governed change; resolves once statistics has them. */
export async function seedAdmin(
  system: System,
  api: Client,
  svc: CallOptions,
  customerId: string,
  agentId: string,
): Promise<void> {
  const admin = (await login(api, system.admin.username, system.admin.password)).token
  const asAdmin = { token: admin }
  for (const [name, source] of SOURCES) {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`
    must(await api.post('/api/customers', { name, email, source }, svc), 201, `customer ${name}`)
  }

  // an SLA for urgent tickets; the urgent ones are moved ten minutes back, and the monitor records their breaches
  must(
    await api.post(
      '/api/sla/configs',
      { name: 'Urgent', priority: 'urgent', first_response_time: 5, resolution_time: 120, escalation_time: 30 },
      svc,
    ),
    201,
    'urgent sla config',
  )
  const late: string[] = []
  for (const [i, [title, category, priority, rating]] of TICKETS.entries()) {
    const ticket = must(
      await createTicket(api, { title, customer_id: customerId, category, priority }, svc),
      201,
      `ticket ${title}`,
    )
    if (priority === 'urgent') late.push(ticket.id)
    if (i % 3 === 2) continue // left open
    await until('tickets to know the agent', async () => {
      const res = await api.post(`/api/tickets/${ticket.id}/assign`, { agent_id: agentId }, svc)
      if (res.status === 400 && res.body?.code === 'TICKETS_UNKNOWN_AGENT') return undefined
      return must(res, 200, 'assign ticket')
    })
    if (rating === undefined) continue
    must(await api.put(`/api/tickets/${ticket.id}`, { status: 'resolved' }, svc), 200, 'resolved')
    must(await api.post('/api/satisfactions', { ticket_id: ticket.id, rating }, asAdmin), 201, 'rating')
  }
  const db = await system.serviceDatabase('tickets')
  try {
    const at = new Date(Date.now() - 10 * 60_000).toISOString()
    await db.db.updateTable('tickets').set({ created_at: at }).where('id', 'in', late).execute()
  } finally {
    await db.close()
  }

  // one governed change: the portal's brand, so the configuration shows it as the workspace's with a history entry
  const current = must(await api.get('/api/security/config/workspace', asAdmin), 200, 'workspace config')
  must(
    await api.put(
      '/api/security/config/workspace',
      {
        portal: { ...(current.config.portal ?? {}), brand_name: 'Northwind Support' },
        change_ref: 'CHG-1042',
        reason: 'Rebrand of the help centre',
      },
      asAdmin,
    ),
    200,
    'portal brand',
  )

  const today = new Date().toISOString().slice(0, 10)
  await until(
    'statistics to have the demo',
    async () => {
      const [lag, sla, sources] = await Promise.all([
        api.get('/api/statistics/lag', asAdmin),
        api.get(`/api/statistics/sla-violations?start_date=${today}&end_date=${today}`, asAdmin),
        api.get('/api/statistics/customer-source', asAdmin),
      ])
      const ok = lag.body?.caught_up && sla.body?.[0]?.sla_violations >= 2 && sources.body?.length >= 3
      return ok ? true : undefined
    },
    60_000,
  )
}

/** Reports and Configuration for the demo admin, in the context's theme. */
export async function adminShots(
  browser: Browser,
  context: Parameters<Browser['newContext']>[0],
  system: System,
  theme: string,
  shot: (page: Page, name: string) => Promise<void>,
): Promise<void> {
  const ctx = await browser.newContext(context)
  try {
    const page = await ctx.newPage()
    await loginAs(page, system.admin, '/admin/reports')
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor({ timeout: WAIT_MS })
    await page.getByRole('table', { name: 'Tickets by category, table' }).waitFor({ timeout: WAIT_MS })
    await page.getByRole('table', { name: 'Ratings by score' }).waitFor({ timeout: WAIT_MS })
    await page.locator('.reports-chart canvas').nth(6).waitFor({ timeout: WAIT_MS })
    await shot(page, `reports-${theme}`)
    // further down: tickets by category and by priority (the main pane scrolls, the page's header stays)
    // (the root's type check has no DOM types: the element is any here)
    await page.getByRole('heading', { name: 'Tickets by category' }).evaluate((h: any) => {
      h.scrollIntoView()
      const d = (globalThis as any).document
      d.scrollingElement.scrollTop = 0
    })
    await shot(page, `reports-charts-${theme}`)

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Configuration' }).click()
    await page.getByRole('heading', { name: 'Configuration', level: 1 }).waitFor({ timeout: WAIT_MS })
    await page.getByRole('table', { name: 'Configuration history' }).getByText('CHG-1042').waitFor({
      timeout: WAIT_MS,
    })
    await shot(page, `configuration-${theme}`)
  } finally {
    await ctx.close()
  }
}
