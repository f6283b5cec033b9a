import { IdentityEvents } from '@switchboard/contracts'
import { type Caller, concreteScope, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import {
  type CustomerNoteRow,
  type CustomerPatch,
  type CustomerRow,
  findCustomerInScope,
  insertCustomer,
  insertNote,
  updateCustomer,
} from '../db/customers.repository.ts'
import { insertUser, ROLES, takenIdentifiers } from '../db/users.repository.ts'
import { customerFacts, registeredFacts } from '../domain/event-facts.ts'
import { unknowablePassword, usernameFromEmail } from '../domain/usernames.ts'
import { IdentityErrors } from '../errors.ts'
import type { CreateCustomerBody } from '../schemas/customers.schemas.ts'
import type { IdentityTx } from './identity-tx.ts'
import { listField } from './list-fields.ts'
import { publishUserTokenState } from './revocation.ts'
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

/**
 * A new user account (role customer) and its customer record in the caller's workspace (active; an unknown one is
 * registered when an admin or service creates the record, scope-registry.ts).
 */
export async function createCustomer(
  svc: IdentityService,
  caller: Caller,
  body: CreateCustomerBody,
): Promise<CustomerRow> {
  const scope = concreteScope(caller)
  const email = body.email.toLowerCase()
  const username = body.username ?? usernameFromEmail(email)
  const tags = listField('body.tags', body.tags) ?? []
  // No password given: a random one nobody knows; the account exists for the directory until reset.
  const passwordHash = await svc.passwords.hash(body.password ?? unknowablePassword())
  return svc.transaction(caller, async (tx) => {
    await ensureScopeForRecords(tx, scope)
    // Binding an existing account would let one tenant revoke another tenant's user: a new account only.
    const taken = await takenIdentifiers(tx.db, username, email)
    if (taken.length > 0) throw new IdentityErrors.CustomerExists(taken.join(' and '))
    const now = new Date().toISOString()
    const user = await insertUser(tx.db, {
      id: newId(),
      username,
      email,
      password_hash: passwordHash,
      name: body.name,
      phone: body.phone ?? '',
      role: ROLES.customer,
      now,
    })
    const customer = await insertCustomer(tx.db, {
      id: newId(),
      user_id: user.id,
      ...scope,
      name: body.name,
      email,
      phone: body.phone ?? '',
      source: body.source ?? 'web',
      tags,
      company: body.company,
      industry: body.industry,
      priority: body.priority,
      notes: body.notes,
      now,
    })
    await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
    await publishUserTokenState(tx, user, 'registered')
    await tx.emit(IdentityEvents.customerUpserted, customerFacts(customer))
    return customer
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
