// Tickets in the e2e files: tickets checks a ticket's customer against identity's directory as its events made it
// known (docs: services/tickets/README.md, References), so a test makes a real customer through identity and its
// first ticket waits the few milliseconds those events take to arrive.
import { type CallOptions, type Client, type Reply, until } from './http.ts'

export interface Customer {
  id: string
  user_id: string
  tenant_id: string
  workspace_id: string
}

/** A customer record made through identity (`POST /api/customers`) by a caller holding customers.write. */
export async function realCustomer(api: Client, auth: CallOptions, username: string): Promise<Customer> {
  const res = await api.post(
    '/api/customers',
    { name: `E2E ${username}`, email: `${username}@e2e.example.com`, username },
    auth,
  )
  if (res.status !== 201) throw new Error(`customer ${username}: ${res.status} ${res.text}`)
  return res.body as Customer
}

/** What tickets answers while identity's (or conversations') event about a reference is on its way. */
const NOT_YET_KNOWN = new Set(['TICKETS_UNKNOWN_CUSTOMER', 'TICKETS_UNKNOWN_SESSION'])

/**
 * `POST /api/tickets`, again while tickets does not know the customer (400 TICKETS_UNKNOWN_CUSTOMER) or the session
 * it continues (400 TICKETS_UNKNOWN_SESSION) yet: the event is on its way. Any other answer is returned as it is.
 */
export function createTicket(api: Client, body: Record<string, unknown>, auth: CallOptions): Promise<Reply> {
  return until(`tickets to know customer ${String(body.customer_id)}`, async () => {
    const res = await api.post('/api/tickets', body, auth)
    return res.status === 400 && NOT_YET_KNOWN.has(res.body?.code) ? undefined : res
  })
}
