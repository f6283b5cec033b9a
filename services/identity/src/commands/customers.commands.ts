import { IdentityEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  type CustomerNoteRow,
  type CustomerPatch,
  type CustomerRow,
  findCustomerByEmail,
  findCustomerByUsername,
  findCustomerInScope,
  insertNote,
  updateCustomer,
} from '../db/customers.repository.ts'
import { customerFacts } from '../db/event-facts.ts'
import { takenIdentifiers, usernameTaken } from '../db/users.repository.ts'
import { unknowablePassword, usernameFromEmail } from '../domain/usernames.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateCustomerBody } from '../schemas/customers.schemas.ts'
import { contactAccount, insertCustomerWithAccount, lockScopeEmail } from './customer-accounts.ts'
import type { IdentityTx } from './identity-tx.ts'
import { listField } from './list-fields.ts'
import { ensureScopeForRecords } from './scope-registry.ts'

/** Both sides of a change, for the audit record. */
export interface CustomerChange {
  before: CustomerRow
  after: CustomerRow
}

/** A customer of the caller's scope, or 404: another tenant's customer is indistinguishable from none. */
async function customerInScope(tx: IdentityTx, id: string): Promise<CustomerRow> {
  const customer = await findCustomerInScope(tx.db, id, tx.caller.scope)
  if (!customer) throw new IdentityErrors.CustomerNotFound()
  return customer
}

/** A login name nobody has: the e-mail's local part plus a random suffix, drawn again on the rare collision. */
async function freeUsername(tx: IdentityTx, email: string): Promise<string> {
  for (;;) {
    const username = usernameFromEmail(email)
    if (!(await usernameTaken(tx.db, username))) return username
  }
}

/**
 * A new customer record in the caller's workspace (active; an unknown one is registered when an admin or service
 * creates the record, scope-registry.ts), bound to a new account (role customer) of its own — never an existing one:
 * binding would let one tenant revoke another tenant's user.
 *
 * Only the caller's scope is looked at for a duplicate: an e-mail a customer of the scope holds (or a `username` the
 * account of one has) is 409 IDENTITY_CUSTOMER_EXISTS. Users' e-mails and usernames are unique platform-wide, so
 * when either is held by any other account (another tenant's customer or staff, or staff of this tenant) the customer
 * is made as a **contact** (customer-accounts.ts): the record with the e-mail, an account that cannot log in, the
 * body's `password` unused — the same 201 and body as a login customer, so the answer says nothing of accounts
 * outside the scope. The contact's username is the body's when free, else one drawn from the e-mail as always.
 */
export async function createCustomer(
  svc: IdentityService,
  caller: Caller,
  body: CreateCustomerBody,
): Promise<CustomerRow> {
  const scope = concreteScope(caller)
  const email = body.email.toLowerCase()
  const tags = listField('body.tags', body.tags) ?? []
  // Hashed whichever account is made, so a contact costs what a login does. No password given: a random one nobody
  // knows; the account exists for the directory until reset.
  const passwordHash = await svc.passwords.hash(body.password ?? unknowablePassword())
  return svc.transaction(caller, async (tx) => {
    await ensureScopeForRecords(tx, scope)
    await lockScopeEmail(tx, scope, email)
    if (await findCustomerByEmail(tx.db, email, scope)) throw new IdentityErrors.CustomerExists('email')
    if (body.username && (await findCustomerByUsername(tx.db, body.username, scope))) {
      throw new IdentityErrors.CustomerExists('username')
    }
    const username = body.username ?? (await freeUsername(tx, email))
    const taken = await takenIdentifiers(tx.db, username, email)
    const account =
      taken.length === 0
        ? { username, email, password_hash: passwordHash }
        : contactAccount(taken.includes('username') ? await freeUsername(tx, email) : username)
    return insertCustomerWithAccount(tx, scope, account, {
      name: body.name,
      email,
      phone: body.phone ?? '',
      source: body.source ?? 'web',
      tags,
      company: body.company,
      industry: body.industry,
      priority: body.priority,
      notes: body.notes,
    })
  })
}

/** What an update may change; tags as an array or a comma-separated string. */
export type CustomerUpdate = Omit<CustomerPatch, 'tags'> & { tags?: string | string[] | undefined }

/** update and tags: the changed record and its upsert event. */
export function patchCustomer(svc: IdentityService, caller: Caller, id: string, update: CustomerUpdate) {
  const patch: CustomerPatch = { ...update, tags: listField('body.tags', update.tags) }
  return svc.transaction(caller, async (tx): Promise<CustomerChange> => {
    const before = await customerInScope(tx, id)
    const after = (await updateCustomer(tx.db, id, patch, new Date().toISOString())) as CustomerRow
    await tx.emit(IdentityEvents.customerUpserted, customerFacts(after))
    return { before, after }
  })
}

/** A note on a customer of the caller's scope, by the caller. */
export function addCustomerNote(
  svc: IdentityService,
  caller: Caller,
  id: string,
  content: string,
): Promise<CustomerNoteRow> {
  return svc.transaction(caller, async (tx) => {
    const customer = await customerInScope(tx, id)
    return insertNote(tx.db, {
      id: newId(),
      customer,
      author_user_id: caller.actor.user_id,
      content,
      now: new Date().toISOString(),
    })
  })
}
