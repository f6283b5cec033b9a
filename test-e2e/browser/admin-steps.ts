// Steps the admin browser tests share: a page's figures compared with the API's, a status line, a write found in the
// audit log, and the two halves of dual control on the Configuration screen (a high-risk LLM change proposed by one
// administrator, approved by another) — the same steps whichever storage mode runs behind the gateway. Every wait is
// on a role, a name, a text or an API answer.
import type { Locator, Page } from 'playwright-core'
import { type Client, until } from '../harness/http.ts'
import { WAIT_MS } from './harness.ts'

/** The page's status line says `text`. */
export const says = (p: Page, text: string) =>
  p.getByRole('status').filter({ hasText: text }).waitFor({ timeout: WAIT_MS })

/** `shown()` equals `expected()`, both re-read until they agree (a page re-reads on its own schedule, the API moves). */
export const agrees = (what: string, shown: () => Promise<unknown>, expected: () => Promise<unknown>) =>
  until(
    what,
    async () => {
      const [s, e] = await Promise.all([shown(), expected()])
      if (JSON.stringify(s) !== JSON.stringify(e)) throw new Error(`${JSON.stringify(s)} ≠ ${JSON.stringify(e)}`)
      return true
    },
    WAIT_MS,
  )

/** A table's body as the texts of its cells, row by row (header cells of a row included). */
export const rows = (table: Locator) =>
  table.locator('tbody tr').evaluateAll((trs) => trs.map((tr: any) => [...tr.children].map((c: any) => c.textContent)))

/** The audit record of `actor` that `match` picks, once the audit service has it (the bus may deliver it late). */
export const audited = (api: Client, token: string, actor: string, what: string, match: (r: any) => boolean) =>
  until(
    `${what} in the audit log`,
    async () => {
      const res = await api.get(`/api/audit/logs?actor=${actor}&page_size=200`, { token })
      return (res.body.data as any[] | undefined)?.find(match)
    },
    WAIT_MS,
  )

/**
 * On the Configuration screen: a new LLM timeout reviewed (the page shows the API's computed risk and the changed
 * paths, answered here) and proposed for approval under change reference `ref`; resolves once the page says it waits.
 */
export async function proposeLlmTimeout(page: Page, timeout: number, ref: string): Promise<string[]> {
  const llm = page.getByRole('form', { name: 'LLM', exact: true })
  await llm.getByLabel('LLM timeout (ms)').fill(String(timeout))
  await llm.getByRole('button', { name: 'Review LLM change' }).click()
  const review = llm.getByRole('region', { name: 'Review of the LLM change' })
  await review.getByText(/Risk: high — a second administrator must approve it/).waitFor({ timeout: WAIT_MS })
  const paths = await review.getByRole('list', { name: 'Changed paths' }).getByRole('listitem').allTextContents()
  await review.getByRole('textbox', { name: 'Change reference', exact: true }).fill(ref)
  await review.getByRole('textbox', { name: 'Reason', exact: true }).fill('slower provider')
  await review.getByRole('button', { name: 'Propose for approval' }).click()
  await llm.getByRole('status').filter({ hasText: 'Waiting for approval' }).waitFor({ timeout: WAIT_MS })
  return paths
}

/** The second administrator approves change `ref` from the Approvals list with `notes`; resolves once it is gone. */
export async function approveChange(page: Page, ref: string, notes: string): Promise<void> {
  const change = page.getByRole('article', { name: `Change ${ref}` })
  await change.getByRole('textbox', { name: `Notes for ${ref}` }).fill(notes)
  await change.getByRole('button', { name: `Approve ${ref}` }).click()
  await change.waitFor({ state: 'detached', timeout: WAIT_MS })
}
