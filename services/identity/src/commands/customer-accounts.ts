import { IdentityEvents } from '@switchboard/contracts'
import { newId, type Scope } from '@switchboard/platform'
import { type CustomerRow, insertCustomer, type NewCustomer } from '../db/customers.repository.ts'
import { customerFacts, registeredFacts } from '../db/event-facts.ts'
import { insertUser, ROLES } from '../db/users.repository.ts'
import { CONTACT_PASSWORD_HASH, contactLoginEmail } from '../domain/usernames.ts'
import type { IdentityTx } from './identity-tx.ts'
import { publishUserTokenState } from './revocation.ts'

/** The account a customer record is bound to: its login name, login e-mail and stored password hash. */
export interface CustomerAccount {
  username: string
  email: string
  password_hash: string
}

/**
 * A contact's account: no login — its login e-mail is `<username>@contact.invalid` (unique by the username, never
 * anyone's real address) and its "hash" a marker no password verifies against. The customer's real e-mail is the
 * customer record's contact data only, so it squats no login e-mail and binds no other account.
 */
export const contactAccount = (username: string): CustomerAccount => ({
  username,
  email: contactLoginEmail(username),
  password_hash: CONTACT_PASSWORD_HASH,
})

/**
 * One customer of a scope per e-mail among concurrent makers (the widget's "leave a message", the directory's
 * create): a transaction lock on scope + e-mail.
 */
export async function lockScopeEmail(tx: IdentityTx, scope: Scope, email: string): Promise<void> {
  await tx.advisoryLock(`identity.customer-email\n${scope.tenant_id}\n${scope.workspace_id}\n${email}`)
}

/** What the customer record holds besides its ids, scope and timestamps. */
export type CustomerFields = Omit<NewCustomer, 'id' | 'user_id' | 'tenant_id' | 'workspace_id' | 'now'>

/**
 * A new account (role customer) and its customer record in `scope`, with their events: user registered (and its
 * token state) and customer upserted. The account's display name and phone are the record's.
 */
export async function insertCustomerWithAccount(
  tx: IdentityTx,
  scope: Scope,
  account: CustomerAccount,
  fields: CustomerFields,
): Promise<CustomerRow> {
  const now = new Date().toISOString()
  const user = await insertUser(tx.db, {
    id: newId(),
    ...account,
    name: fields.name,
    phone: fields.phone,
    role: ROLES.customer,
    now,
  })
  const customer = await insertCustomer(tx.db, {
    ...fields,
    id: newId(),
    user_id: user.id,
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    now,
  })
  await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
  await publishUserTokenState(tx, user, 'registered')
  await tx.emit(IdentityEvents.customerUpserted, customerFacts(customer))
  return customer
}
