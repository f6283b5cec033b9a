// The tenant erasure suite's world (erasure-tenant.test.ts): a tenant that leaves, holding something personal in
// every unit — its registry name, an administrator and an agent, a customer's conversation with an upload, an
// anonymous visitor's conversation, a widget visitor's "leave a message" ticket, a ticket with a comment and a
// rating, a knowledge doc and a macro, a governed portal change and an app integration — and a tenant that stays, with a customer and a doc of its own. Each person
// and text carries a marker no other record holds, so a scan can tell what is left.
import { login } from './auth.ts'
import { type conversationsKit, must, PNG, postUpload, type Scope } from './conversations-kit.ts'
import { tenantAdmin } from './erasure-kit.ts'
import type { System } from './system.ts'
import { createTicket } from './tickets-kit.ts'

export type Kit = Awaited<ReturnType<typeof conversationsKit>>

/** The leaving tenant, filled; `markers` are what must be gone from everywhere once it is erased. */
export async function leavingTenant(system: System, kit: Kit, gone: Scope) {
  const { api, suffix } = kit
  const staff = kit.svc(gone)
  const tenantName = `Gonzaga Holdings ${suffix}`
  const admin = await tenantAdmin(api, kit.service, gone, `gonzaga_admin_${suffix}`, tenantName)

  const agent = await kit.agent(gone, 'Ophelia', { online: true })
  const agentToken = (await kit.agentLogin(agent)).token
  const customer = await kit.customer(gone, 'Leopold')
  const customerName = `Leopold ${suffix}`
  const said = `my crate CR${suffix}X is lost`

  const hub = kit.hub(gone)
  const chat = await hub.open(`Hello, ${said}`, customer.user_id)
  const sessionId = chat.session.id as string
  must(
    await api.post(`/api/omni/sessions/${sessionId}/messages`, { content: `Dear ${customerName}, on it` }, staff),
    201,
    'agent reply',
  )
  const customerToken = (await login(api, customer.username, customer.password)).token
  const file = { name: `leopold-${suffix}.png`, type: 'image/png', bytes: PNG }
  const upload = must(
    await postUpload(system.url, { session_id: sessionId }, file, { token: customerToken }),
    201,
    'upload',
  ) as { id: string }

  const visitorSaid = `I am Wilhelmina ${suffix}, order OV${suffix}V`
  const visit = await hub.open(visitorSaid)
  const visitorSession = visit.session.id as string

  const widgetName = `Vera Venn ${suffix}`
  const widgetEmail = `vera_${suffix}@e2e.example.com`
  const widgetSaid = `Nobody answered about WT${suffix}W`
  const left = await api.post('/public/widget/tickets', {
    ...gone,
    name: widgetName,
    email: widgetEmail,
    content: widgetSaid,
  })
  must(left, 201, 'widget ticket')

  const ticket = must(
    await createTicket(
      api,
      { title: `Crate of ${customerName}`, description: said, customer_id: customer.id, category: 'billing' },
      staff,
    ),
    201,
    'ticket',
  ) as { id: string }
  must(await api.post(`/api/tickets/${ticket.id}/comments`, { content: `Spoke to ${customerName}` }, staff), 201, 'c')
  must(await api.post('/api/satisfactions', { ticket_id: ticket.id, rating: 5, comment: said }, staff), 201, 'rating')

  const doc = { title: `Handbook KB${suffix}K`, content: `Refunds: ask Ophelia ${suffix} (KB${suffix}K)` }
  must(await api.post('/api/knowledge-docs', doc, staff), 201, 'knowledge doc')
  const macro = { name: `Greeting MC${suffix}M`, content: `Kind regards, Ophelia ${suffix} MC${suffix}M` }
  must(await api.post('/api/macros', macro, staff), 201, 'macro')

  // config-governance: a governed portal change and an app integration naming the tenant and its people (what the
  // tenant's erasure knows them by, so audit masks its records of them as well)
  const governed = {
    portal: { brand_name: tenantName, support_email: admin.email },
    change_ref: `CG-${suffix}`,
    reason: `asked by Ophelia ${suffix}`,
  }
  must(await api.put('/api/security/config/workspace', governed, staff), 200, 'governed change')
  const crm = { name: `CRM of ${tenantName}`, iframe_url: `https://crm.example.com/${suffix}` }
  must(await api.post('/api/apps/integrations', crm, staff), 201, 'app integration')

  const markers = [
    tenantName,
    admin.username,
    admin.email,
    `Ophelia ${suffix}`,
    agent.username,
    customerName,
    customer.username,
    `CR${suffix}X`,
    `Wilhelmina ${suffix}`,
    `OV${suffix}V`,
    widgetName,
    widgetEmail,
    `WT${suffix}W`,
    `KB${suffix}K`,
    `MC${suffix}M`,
    `leopold-${suffix}.png`,
  ]
  return {
    admin,
    agent,
    agentToken,
    customer,
    sessionId,
    visitorSession,
    upload,
    ticketId: ticket.id,
    widgetTicketId: left.body.ticket_id as string,
    markers,
  }
}

/** The tenant that stays: a customer's conversation and a knowledge doc, with markers that must survive. */
export async function stayingTenant(kit: Kit, kept: Scope) {
  const { api, suffix } = kit
  await tenantAdmin(api, kit.service, kept, `kasimir_admin_${suffix}`, `Kasimir Keeps ${suffix}`)
  const customer = await kit.customer(kept, 'Kasimir')
  const chat = await kit.hub(kept).open(`Kasimir stays KS${suffix}K`, customer.user_id)
  const doc = { title: `Kept KD${suffix}K`, content: `Kept words KD${suffix}K` }
  must(await api.post('/api/knowledge-docs', doc, kit.svc(kept)), 201, 'kept doc')
  return { customer, sessionId: chat.session.id as string, markers: [`KS${suffix}K`, `KD${suffix}K`] }
}
