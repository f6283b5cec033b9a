// A workspace's survey settings (PUT /api/tickets/settings {survey_enabled, survey_expiry_days}): off, a close sends
// no survey; on with 3 days, a close's survey and a resend's link answer 3 days; another workspace keeps the
// defaults (on, 7 days); a partial PUT keeps the other keys; bad values 400; agents refused.
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as, principal } from '../helpers/app.ts'
import { ACME, GLOBEX, knownCustomer, otherTenantAgent, slaAgent, slaApp } from '../helpers/sla.ts'

const DAY = 86_400_000

inEachStorageMode(t, 'survey settings per workspace', async (t, mode) => {
  const { call, svc } = await slaApp(t, mode)
  const admin = await as({ ...slaAgent, user_id: 'admin-1', kind: 'admin', roles: ['admin'], permissions: ['*'] })
  const globexAdmin = await as({ ...otherTenantAgent, kind: 'admin', roles: ['admin'], permissions: ['*'] })
  await knownCustomer(svc, ACME, { user_id: 'cust-1', name: 'Ann' })
  await knownCustomer(svc, GLOBEX, { user_id: 'cust-g', name: 'Gus' })
  const closedTicket = async (customer: string, h?: Record<string, string>) => {
    const res = await call('POST', '/api/tickets', { title: 'Survey me', customer_id: customer }, h)
    t.equal(res.statusCode, 201, res.body)
    t.equal((await call('POST', `/api/tickets/${res.json().id}/close`, {}, h)).statusCode, 200)
    return res.json().id as string
  }
  const surveysOf = async (ticket: string, h?: Record<string, string>) =>
    (await call('GET', `/api/satisfactions/surveys?ticket_id=${ticket}`, undefined, h)).json().data as any[]
  const put = (payload: object, h = admin) => call('PUT', '/api/tickets/settings', payload, h)

  const defaults = (await call('GET', '/api/tickets/settings')).json()
  t.match(defaults, { auto_assign: false, survey_enabled: true, survey_expiry_days: 7, is_default: true })

  t.equal((await put({ survey_enabled: false })).statusCode, 200)
  t.equal((await surveysOf(await closedTicket('cust-1'))).length, 0, 'off: a close sends no survey')

  const both = await put({ survey_enabled: true, survey_expiry_days: 3 })
  t.match(both.json(), { auto_assign: false, survey_enabled: true, survey_expiry_days: 3, is_default: false })
  const [survey] = await surveysOf(await closedTicket('cust-1'))
  t.equal(new Date(survey.expires_at).getTime() - new Date(survey.sent_at).getTime(), 3 * DAY, 'answers 3 days')
  const resent = await call('POST', `/api/satisfactions/surveys/${survey.id}/resend`)
  t.equal(resent.statusCode, 200, resent.body)
  t.equal(new Date(resent.json().expires_at).getTime() - new Date(resent.json().sent_at).getTime(), 3 * DAY)

  // a partial PUT keeps the other keys
  const auto = await put({ auto_assign: true })
  t.match(auto.json(), { auto_assign: true, survey_enabled: true, survey_expiry_days: 3 })

  // another workspace keeps the defaults
  const [theirs] = await surveysOf(await closedTicket('cust-g', globexAdmin), globexAdmin)
  t.equal(new Date(theirs.expires_at).getTime() - new Date(theirs.sent_at).getTime(), 7 * DAY, 'globex: 7 days')

  for (const bad of [{}, { survey_expiry_days: 0 }, { survey_expiry_days: 91 }, { survey_enabled: 'no' }]) {
    const res = await put(bad)
    t.equal(res.statusCode, 400, JSON.stringify(bad))
  }
  // an agent's tickets.write is not tickets.settings
  const agent = await as(principal({ permissions: ['tickets.read', 'tickets.write'] }))
  t.equal((await put({ survey_enabled: false }, agent)).statusCode, 403, 'an agent: 403')
  t.match((await call('GET', '/api/tickets/settings')).json(), { survey_enabled: true, survey_expiry_days: 3 })
})
