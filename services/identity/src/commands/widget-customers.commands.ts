import { randomBytes } from 'node:crypto'
import { IdentityEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId } from '@switchboard/platform'
import { sql } from 'kysely'
import type { IdentityService } from '../context.ts'
import { type CustomerRow, findCustomerByEmail, insertCustomer } from '../db/customers.repository.ts'
import { insertUser, ROLES } from '../db/users.repository.ts'
import { customerFacts, registeredFacts } from '../domain/event-facts.ts'
import { CONTACT_PASSWORD_HASH, contactLoginEmail } from '../domain/usernames.ts'
import { publishUserTokenState } from './revocation.ts'
import { admitScope } from './scope-registry.ts'

export interface WidgetCustomerInput {
  email: string
  name?: string | undefined
}

/**
 * The customer a widget visitor's "leave a message" belongs to: the scope's customer with this e-mail (compared
 * lower-cased), else a new contact. A widget-made customer is a contact, not a login: its account's login e-mail is
 * `<username>@contact.invalid` and it has no password, while the visitor's e-mail is the customer record's contact
 * data. So nothing here ever looks at the platform's accounts (users' e-mails are unique platform-wide): an e-mail of
 * another tenant's customer, of a staff account or nobody's takes the same path, the same work and the same answer —
 * no oracle for an anonymous caller, no account of another tenant bound here, no login e-mail squatted by a visitor.
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
    // Two messages of one new e-mail at once make one customer. SQLite's single writer serialises already.
    if (svc.dialect === 'postgres') {
      const key = `identity.widget-customer\n${scope.tenant_id}\n${scope.workspace_id}\n${email}`
      await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(tx.db)
    }
    const known = await findCustomerByEmail(tx.db, email, scope)
    if (known) return { customer: known, created: false }
    const now = new Date().toISOString()
    const name = input.name ?? email.split('@')[0] ?? email
    const username = `widget_${randomBytes(10).toString('hex')}`
    const user = await insertUser(tx.db, {
      id: newId(),
      username,
      email: contactLoginEmail(username),
      password_hash: CONTACT_PASSWORD_HASH,
      name,
      phone: '',
      role: ROLES.customer,
      now,
    })
    const customer = await insertCustomer(tx.db, {
      id: newId(),
      user_id: user.id,
      ...scope,
      name,
      email,
      phone: '',
      source: 'widget',
      tags: [],
      now,
    })
    await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
    await publishUserTokenState(tx, user, 'registered')
    await tx.emit(IdentityEvents.customerUpserted, customerFacts(customer))
    return { customer, created: true }
  })
}
