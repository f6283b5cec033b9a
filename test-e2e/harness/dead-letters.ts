// Making real dead letters, as operations.test.ts and the console's operations page test do: a customer and a first
// ticket whose audit records are in, then the audit table renamed away so that the audit consumer fails on what
// comes next (the next management write is a dead letter), and put back by `restore` (also at the test's end).
import type { Test } from 'tap'
import { type Client, until } from './http.ts'
import type { System } from './system.ts'
import { createTicket, realCustomer } from './tickets-kit.ts'

/** A customer whose record and first ticket are audited already, so that nothing of theirs dead-letters later. */
export async function auditedCustomer(
  t: Test,
  api: Client,
  tokens: { admin: string; agent: string },
  name: string,
  suffix: string,
) {
  const customer = await realCustomer(api, { token: tokens.admin }, name)
  const first = await createTicket(
    api,
    { title: `Known ${suffix}`, customer_id: customer.user_id },
    { token: tokens.agent },
  )
  t.equal(first.status, 201, first.text)
  for (const [action, id] of [
    ['customers.create', customer.id],
    ['tickets.create', first.body.id],
  ]) {
    await until(`audit ${action}`, async () => {
      const res = await api.get(`/api/audit/logs?action=${action}`, { token: tokens.admin })
      return (res.body.data as any[] | undefined)?.find((r) => r.resource_id === id)
    })
  }
  return customer
}

/** The audit table renamed away (the audit consumer then dead-letters); the function answered puts it back, once. */
export async function parkAuditTable(t: Test, system: System, suffix: string): Promise<() => Promise<void>> {
  const audit = await system.serviceDatabase('audit')
  t.teardown(() => audit.close())
  const parked = `audit_logs_parked_${suffix}`
  await audit.db.schema.alterTable('audit_logs').renameTo(parked).execute()
  let restored = false
  const restore = async () => {
    if (restored) return
    restored = true
    await audit.db.schema.alterTable(parked).renameTo('audit_logs').execute()
  }
  t.teardown(restore)
  return restore
}
