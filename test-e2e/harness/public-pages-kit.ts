// What the public pages' tests need from a running system, made through the API as staff would: knowledge docs
// (public, private, hostile, another tenant's) for the help centre, and closed tickets' survey links for the CSAT page.
import { randomUUID } from 'node:crypto'
import { mintServiceToken } from '@switchboard/cli'
import { login } from './auth.ts'
import { type CallOptions, client, type Reply, until } from './http.ts'
import type { System } from './system.ts'

export const HOSTILE_TITLE = '</title><script>alert("t")</script> Refunds & <b>more</b>'
export const HOSTILE_BODY = [
  '## Asking for a refund',
  '',
  'Write to **support**. <script>alert("body")</script> <img src=x onerror=alert(1)>',
  '',
  '[click me](javascript:alert(2)) <a href="javascript:alert(3)">raw</a> [ok](https://example.com/refunds)',
].join('\n')

const must = (r: Reply, status: number, what: string) => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
  return r.body
}

export interface PublicPagesKit {
  suffix: string
  /** the demo tenant/workspace's help centre: `/help/<tenant>/<workspace>` */
  home: string
  /** another tenant's, with its own public doc */
  otherHome: string
  docs: {
    reset: { id: string; title: string }
    hours: { id: string; title: string }
    hostile: { id: string; title: string }
    internal: { id: string; title: string }
    other: { id: string; title: string }
  }
  /** a fresh survey link's token for a closed ticket of the demo scope, handled by the demo agent */
  surveyToken(title: string): Promise<{ token: string; ticketId: string; surveyId: string }>
  /** the agent's display name, as the survey shows it */
  agentName: string
  asAdmin: CallOptions
  /** moves a survey past its expiry */
  expire(surveyId: string): Promise<void>
}

export async function publicPagesKit(system: System): Promise<PublicPagesKit> {
  const api = client(system.url)
  const suffix = randomUUID().slice(0, 6)
  const demo = { 'x-tenant-id': system.tenant_id, 'x-workspace-id': system.workspace_id }
  const admin = await login(api, system.admin.username, system.admin.password)
  const agent = await login(api, system.agent.username, system.agent.password)
  const asAdmin: CallOptions = { token: admin.token, headers: demo }
  const asAgent: CallOptions = { token: agent.token }

  const doc = async (body: Record<string, unknown>, opts: CallOptions) => {
    const written = must(await api.post('/api/knowledge-docs', { is_public: true, ...body }, opts), 201, 'doc')
    return { id: written.id as string, title: written.title as string }
  }
  const reset = await doc(
    {
      title: `Reset your password ${suffix}`,
      content: 'Open **Settings**, then choose *Reset password*.\n\n## Still stuck?\n\nWrite to us.',
      category: 'account',
      tags: ['password'],
    },
    asAdmin,
  )
  const hours = await doc({ title: `Opening hours ${suffix}`, content: 'The desk answers from 8 to 18.' }, asAdmin)
  const hostile = await doc({ title: HOSTILE_TITLE, content: HOSTILE_BODY, category: 'billing' }, asAdmin)
  const internal = await doc(
    { title: `Internal escalations ${suffix}`, content: 'staff only', is_public: false },
    asAdmin,
  )

  // tenant B, reached by an unscoped service token naming it
  const { token: service } = await mintServiceToken({ service: 'e2e-pages', permissions: ['*'], env: system.env })
  const tenantB = `pages${suffix}`
  must(
    await api.post('/api/security/tenants', { id: tenantB, workspaces: [{ id: 'support' }] }, { token: service }),
    201,
    'B',
  )
  const asB: CallOptions = { token: service, headers: { 'x-tenant-id': tenantB, 'x-workspace-id': 'support' } }
  const other = await doc({ title: `Tenant B reset password ${suffix}`, content: 'B only' }, asB)

  const customer = must(
    await api.post('/api/customers', { name: `Pat ${suffix}`, email: `pat_${suffix}@e2e.example.com` }, asAdmin),
    201,
    'customer',
  )
  const agents = must(await api.get('/api/agents?page_size=200', asAdmin), 200, 'agents').data
  const agentName = agents.find((a: { user_id: string }) => a.user_id === agent.user.id).name as string

  return {
    suffix,
    home: `/help/${system.tenant_id}/${system.workspace_id}`,
    otherHome: `/help/${tenantB}/support`,
    docs: { reset, hours, hostile, internal, other },
    agentName,
    asAdmin,
    async surveyToken(title) {
      // a ticket names a customer tickets has heard of from identity: retried until the event has arrived
      const tk = await until('ticket created', async () => {
        const r = await api.post('/api/tickets', { title, customer_id: customer.id, source: 'chat' }, asAgent)
        return r.status === 201 ? r.body : undefined
      })
      must(await api.post(`/api/tickets/${tk.id}/assign`, { agent_id: agent.user.id }, asAgent), 200, 'assign')
      must(await api.post(`/api/tickets/${tk.id}/close`, { reason: 'answered' }, asAgent), 200, 'close')
      const survey = must(await api.get(`/api/satisfactions/surveys?ticket_id=${tk.id}`, asAgent), 200, 's').data[0]
      // the close sent the link to the customer's channel; staff get a fresh one with a resend
      const resent = must(
        await api.post(`/api/satisfactions/surveys/${survey.id}/resend`, undefined, asAgent),
        200,
        'r',
      )
      return { token: (resent.link as string).split('/').pop()!, ticketId: tk.id as string, surveyId: survey.id }
    },
    async expire(surveyId) {
      const db = await system.serviceDatabase('tickets')
      try {
        const past = new Date(Date.now() - 1000).toISOString()
        await db.db.updateTable('satisfaction_surveys').set({ expires_at: past }).where('id', '=', surveyId).execute()
      } finally {
        await db.close()
      }
    },
  }
}
