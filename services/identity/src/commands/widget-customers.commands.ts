import { randomBytes } from 'node:crypto'
import { type Caller, concreteScope } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { type CustomerRow, findCustomerByEmail } from '../db/customers.repository.ts'
import { contactAccount, insertCustomerWithAccount, lockScopeEmail } from './customer-accounts.ts'
import { admitScope } from './scope-registry.ts'

export interface WidgetCustomerInput {
  email: string
  name?: string | undefined
}

/**
 * The customer a widget visitor's "leave a message" belongs to: the scope's customer with this e-mail (compared
 * lower-cased), else a new contact. A widget-made customer is a contact, not a login: its account's login e-mail is
 * `<username>@contact.invalid` and it has no password, while the visitor's e-mail is the customer record's contact
 * data (customer-accounts.ts). So nothing here ever looks at the platform's accounts (users' e-mails are unique
 * platform-wide): an e-mail of another tenant's customer, of a staff account or nobody's takes the same path, the
 * same work and the same answer — no oracle for an anonymous caller, no account of another tenant bound here, no
 * login e-mail squatted by a visitor.
 */
export function findOrMakeWidgetCustomer(
  svc: IdentityService,
  caller: Caller,
  input: WidgetCustomerInput,
): Promise<{ customer: CustomerRow; created: boolean }> {
  const scope = concreteScope(caller)
  const email = input.email.toLowerCase()
  return svc.transaction(caller, async (tx) => {
    await admitScope(tx.db, scope, 'widget')
    // Two messages of one new e-mail at once make one customer (and so does a directory create racing one).
    await lockScopeEmail(tx, scope, email)
    const known = await findCustomerByEmail(tx.db, email, scope)
    if (known) return { customer: known, created: false }
    const name = input.name ?? email.split('@')[0] ?? email
    const account = contactAccount(`widget_${randomBytes(10).toString('hex')}`)
    const fields = { name, email, phone: '', source: 'widget', tags: [] }
    return { customer: await insertCustomerWithAccount(tx, scope, account, fields), created: true }
  })
}
