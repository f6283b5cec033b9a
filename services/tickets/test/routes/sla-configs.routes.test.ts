import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { as } from '../helpers/app.ts'
import { otherTenantAgent, slaApp } from '../helpers/sla.ts'

const base = { first_response_time: 30, resolution_time: 240, escalation_time: 120 }

inEachStorageMode(t, 'SLA configs', async (t, mode) => {
  const { call } = await slaApp(t, mode)
  const other = await as(otherTenantAgent)

  t.test('create with defaults; the reference rules; one per priority and tier; one per name', async (t) => {
    const res = await call('POST', '/api/sla/configs', { name: 'High', priority: 'high', ...base })
    t.equal(res.statusCode, 201, res.body)
    t.match(res.json(), {
      name: 'High',
      priority: 'high',
      customer_tier: '',
      tags: [],
      warning_threshold: 80,
      business_hours_only: false,
      active: true,
      tenant_id: 'acme',
      workspace_id: 'support',
    })
    const refused: Array<[object, number, string]> = [
      [{ name: 'x', priority: 'high', ...base, first_response_time: 240 }, 400, 'TICKETS_SLA_INVALID_CONFIG'],
      [{ name: 'x', priority: 'high', ...base, escalation_time: 300 }, 400, 'TICKETS_SLA_INVALID_CONFIG'],
      [{ name: 'x', priority: 'high', ...base, warning_threshold: 40 }, 400, 'VALIDATION_FAILED'],
      [{ name: 'x', priority: 'high', ...base, first_response_time: 0 }, 400, 'VALIDATION_FAILED'],
      [{ name: 'x', priority: 'asap', ...base }, 400, 'VALIDATION_FAILED'],
      [{ name: 'x', priority: 'high', customer_tier: 'gold', ...base }, 400, 'VALIDATION_FAILED'],
      [{ name: 'x', priority: 'high', ...base }, 409, 'TICKETS_SLA_CONFIG_EXISTS'],
      [{ name: 'High', priority: 'low', ...base }, 409, 'TICKETS_SLA_CONFIG_NAME_TAKEN'],
    ]
    for (const [body, status, code] of refused) {
      const r = await call('POST', '/api/sla/configs', body)
      t.equal(r.statusCode, status, JSON.stringify(body))
      t.equal(r.json().code, code)
    }
    const vip = await call('POST', '/api/sla/configs', {
      name: 'High VIP',
      priority: 'high',
      customer_tier: 'urgent',
      ...base,
    })
    t.equal(vip.statusCode, 201, 'another tier of the same priority is another config')
    const elsewhere = await call('POST', '/api/sla/configs', { name: 'High', priority: 'high', ...base }, other)
    t.equal(elsewhere.statusCode, 201, 'another tenant has its own keys')
  })

  t.test(
    'read, list, update (rules re-checked), the priority look-up, delete; other tenants see nothing',
    async (t) => {
      const created = (
        await call('POST', '/api/sla/configs', { name: 'Low', priority: 'low', tags: ['a', 'a'], ...base })
      ).json()
      t.same(created.tags, ['a'])
      const url = `/api/sla/configs/${created.id}`
      t.same((await call('GET', url)).json(), created)

      const list = (await call('GET', '/api/sla/configs?priority=low')).json()
      t.equal(list.total, 1)
      t.equal(list.data[0].id, created.id)
      t.equal((await call('GET', '/api/sla/configs?active=false')).json().total, 0)

      const bad = await call('PUT', url, { resolution_time: 20 })
      t.equal(bad.statusCode, 400, 'first response must stay below resolution')
      t.equal(bad.json().code, 'TICKETS_SLA_INVALID_CONFIG')
      const clash = await call('PUT', url, { priority: 'high' })
      t.equal(clash.statusCode, 409, 'high/"" is taken')
      const updated = await call('PUT', url, { resolution_time: 300, active: false })
      t.equal(updated.statusCode, 200)
      t.match(updated.json(), { resolution_time: 300, active: false, warning_threshold: 80 })

      const exact = await call('GET', '/api/sla/configs/priority/high?customer_tier=urgent')
      t.equal(exact.json().name, 'High VIP')
      const fallback = await call('GET', '/api/sla/configs/priority/high?customer_tier=low')
      t.equal(fallback.json().name, 'High', 'the catch-all tier')
      const inactive = await call('GET', '/api/sla/configs/priority/low')
      t.equal(inactive.statusCode, 404, 'an inactive config applies to nothing')

      for (const [method, payload] of [
        ['GET', undefined],
        ['PUT', { active: true }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, url, payload, other)
        t.equal(res.statusCode, 404, `${method} from another tenant`)
        t.equal(res.json().code, 'TICKETS_SLA_CONFIG_NOT_FOUND')
      }
      t.equal((await call('GET', '/api/sla/configs?priority=low', undefined, other)).json().total, 0)

      t.equal((await call('DELETE', url)).statusCode, 204)
      t.equal((await call('GET', url)).statusCode, 404)
    },
  )

  t.test('business hours: the default, a calendar of the scope, refused calendars', async (t) => {
    const first = await call('GET', '/api/sla/business-hours')
    t.match(first.json(), { time_zone: 'UTC', is_default: true, weekly: { mon: [['09:00', '17:00']] } })
    const put = await call('PUT', '/api/sla/business-hours', {
      time_zone: 'Europe/Berlin',
      weekly: {
        mon: [
          ['08:00', '12:00'],
          ['13:00', '17:00'],
        ],
        sat: [['10:00', '24:00']],
      },
    })
    t.equal(put.statusCode, 200, put.body)
    const got = (await call('GET', '/api/sla/business-hours')).json()
    t.match(got, { time_zone: 'Europe/Berlin', is_default: false, weekly: { sat: [['10:00', '24:00']] } })
    t.equal((await call('GET', '/api/sla/business-hours', undefined, other)).json().is_default, true, 'per scope')
    const refused: object[] = [
      { time_zone: 'Mars/Olympus', weekly: { mon: [['09:00', '17:00']] } },
      { time_zone: 'UTC', weekly: { mon: [['17:00', '09:00']] } },
      {
        time_zone: 'UTC',
        weekly: {
          mon: [
            ['09:00', '12:00'],
            ['11:00', '13:00'],
          ],
        },
      },
      { time_zone: 'UTC', weekly: {} },
      { time_zone: 'UTC', weekly: { mon: [['9:00', '17:00']] } },
      { time_zone: 'UTC', weekly: { funday: [['09:00', '17:00']] } },
    ]
    for (const body of refused) {
      const res = await call('PUT', '/api/sla/business-hours', body)
      t.equal(res.statusCode, 400, JSON.stringify(body))
    }
  })
})
