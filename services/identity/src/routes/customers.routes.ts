import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdentityEvents, pageOf } from '@switchboard/contracts'
import { concreteScope, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import {
  type CustomerPatch,
  type CustomerRow,
  customerView,
  findCustomerInScope,
  insertCustomer,
  insertNote,
  listCustomers,
  listNotes,
  noteView,
  updateCustomer,
} from '../db/customers.repository.ts'
import { findUserById, identityDb, insertUser, ROLES, takenIdentifiers, type UserRow } from '../db/users.repository.ts'
import { DirectoryErrors } from '../directory-errors.ts'
import { publishUserTokenState, revokeUserTokens } from '../domain/revocation.ts'
import { type EventContext, emit, emitUserRegistered, inTransaction } from '../events/publish.ts'
import {
  CreateCustomerBody,
  CustomerIdParams,
  CustomerListQuery,
  CustomerPage,
  CustomerRevokeResult,
  CustomerSchema,
  NoteBody,
  NoteList,
  NoteSchema,
  TagsBody,
  UpdateCustomerBody,
} from '../schemas/customers.schemas.ts'
import { errorResponses } from '../schemas/security.schemas.ts'
import { requireAccess } from './access.ts'

const tags = ['customers']

function emitCustomerUpserted(ctx: EventContext, c: CustomerRow) {
  const v = customerView(c)
  return emit(ctx, IdentityEvents.customerUpserted, {
    customer_id: v.id,
    user_id: v.user_id,
    name: v.name,
    source: v.source,
    tags: v.tags,
  })
}

/** A login name from the email's local part plus a random suffix, in the register schema's alphabet. */
export function usernameFromEmail(email: string): string {
  const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9_.-]/g, '').replace(/^[^A-Za-z0-9]+/, '')
  return `${(local || 'customer').slice(0, 48)}-${randomBytes(3).toString('hex')}`
}

/** The customer directory (API-NOTES.md): records bound to one tenant/workspace and filtered by it. */
export const customerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = identityDb(app)
  const read = requireAccess('customers.read')
  const write = requireAccess('customers.write')

  async function customerOr404(request: FastifyRequest, id: string, trx = db): Promise<CustomerRow> {
    const customer = await findCustomerInScope(trx, id, scopeOf(request))
    if (!customer) throw new DirectoryErrors.CustomerNotFound()
    return customer
  }

  /** update and tags: one transaction, the upsert event, the audit snapshot of what changed. */
  async function patch(request: FastifyRequest, id: string, p: CustomerPatch, snapshot: (c: CustomerRow) => unknown) {
    request.audit.resource_id = id
    const { before, after } = await inTransaction(app, async (trx) => {
      const before = await customerOr404(request, id, trx)
      const after = (await updateCustomer(trx, id, p, new Date().toISOString())) as CustomerRow
      await emitCustomerUpserted({ trx, outbox: app.outbox, from: request }, after)
      return { before, after }
    })
    request.audit.before = snapshot(before)
    request.audit.after = snapshot(after)
    return customerView(after)
  }

  app.post(
    '/api/customers',
    {
      preValidation: write,
      schema: { tags, body: CreateCustomerBody, response: { 201: CustomerSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const scope = concreteScope(request)
      const body = request.body
      const email = body.email.toLowerCase()
      const username = body.username ?? usernameFromEmail(email)
      // No password given: a random one nobody knows; the account exists for the directory until reset.
      const passwordHash = await app.identity.passwords.hash(body.password ?? randomBytes(24).toString('base64url'))
      const customer = await inTransaction(app, async (trx) => {
        // Binding an existing account would let one tenant revoke another tenant's user: a new account only.
        const taken = await takenIdentifiers(trx, username, email)
        if (taken.length > 0) throw new DirectoryErrors.CustomerExists(taken.join(' and '))
        const now = new Date().toISOString()
        const user = await insertUser(trx, {
          id: randomUUID(),
          username,
          email,
          password_hash: passwordHash,
          name: body.name,
          phone: body.phone ?? '',
          role: ROLES.customer,
          now,
        })
        const customer = await insertCustomer(trx, {
          id: randomUUID(),
          user_id: user.id,
          ...scope,
          name: body.name,
          email,
          phone: body.phone ?? '',
          source: body.source ?? 'web',
          tags: body.tags ?? [],
          now,
        })
        const ctx = { trx, outbox: app.outbox, from: request }
        await emitUserRegistered(ctx, user)
        await publishUserTokenState(ctx, user, 'registered')
        await emitCustomerUpserted(ctx, customer)
        return customer
      })
      request.audit.resource_id = customer.id
      request.audit.after = customerView(customer)
      return reply.code(201).send(customerView(customer))
    },
  )

  app.get(
    '/api/customers',
    {
      preValidation: read,
      schema: { tags, querystring: CustomerListQuery, response: { 200: CustomerPage, ...errorResponses } },
    },
    async (request) => {
      const { page = 1, page_size: pageSize = 20, search, source, tag } = request.query
      const { rows, total } = await listCustomers(
        db,
        app.dbDialect,
        scopeOf(request),
        { search, source, tag },
        page,
        pageSize,
      )
      return pageOf(rows.map(customerView), total, page, pageSize)
    },
  )

  app.get(
    '/api/customers/:id',
    {
      preValidation: read,
      schema: { tags, params: CustomerIdParams, response: { 200: CustomerSchema, ...errorResponses } },
    },
    async (request) => customerView(await customerOr404(request, request.params.id)),
  )

  app.put(
    '/api/customers/:id',
    {
      preValidation: write,
      schema: {
        tags,
        params: CustomerIdParams,
        body: UpdateCustomerBody,
        response: { 200: CustomerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body
      const p: CustomerPatch = { ...body, ...(body.email ? { email: body.email.toLowerCase() } : {}) }
      return patch(request, request.params.id, p, customerView)
    },
  )

  app.put(
    '/api/customers/:id/tags',
    {
      preValidation: write,
      schema: { tags, params: CustomerIdParams, body: TagsBody, response: { 200: CustomerSchema, ...errorResponses } },
    },
    async (request) =>
      patch(request, request.params.id, { tags: request.body.tags }, (c) => ({ tags: customerView(c).tags })),
  )

  app.get(
    '/api/customers/:id/notes',
    {
      preValidation: read,
      schema: { tags, params: CustomerIdParams, response: { 200: NoteList, ...errorResponses } },
    },
    async (request) => {
      const customer = await customerOr404(request, request.params.id)
      const items = (await listNotes(db, customer.id)).map(noteView)
      return { count: items.length, items }
    },
  )

  app.post(
    '/api/customers/:id/notes',
    {
      preValidation: write,
      schema: { tags, params: CustomerIdParams, body: NoteBody, response: { 201: NoteSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { id } = request.params
      request.audit.resource_id = id
      const note = await inTransaction(app, async (trx) => {
        const customer = await customerOr404(request, id, trx)
        return insertNote(trx, {
          id: randomUUID(),
          customer,
          author_user_id: request.principal.user_id,
          content: request.body.content,
          now: new Date().toISOString(),
        })
      })
      request.audit.before = null
      request.audit.after = noteView(note)
      return reply.code(201).send(noteView(note))
    },
  )

  app.post(
    '/api/customers/:id/revoke-tokens',
    {
      // listed on the security surface, so security.write as well as the resource's own write
      preValidation: requireAccess('customers.write', 'security.write'),
      schema: { tags, params: CustomerIdParams, response: { 200: CustomerRevokeResult, ...errorResponses } },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await inTransaction(app, async (trx) => {
        const customer = await customerOr404(request, id, trx)
        const before = (await findUserById(trx, customer.user_id)) as UserRow
        const r = await revokeUserTokens(
          { trx, outbox: app.outbox, from: request },
          customer.user_id,
          'customers.revoke_tokens',
        )
        if (!r) throw new DirectoryErrors.CustomerNotFound()
        return { before, after: r.user }
      })
      const snap = (u: UserRow) => ({
        user_id: u.id,
        token_version: Number(u.token_version),
        token_valid_after: u.token_valid_after,
      })
      request.audit.before = snap(before)
      request.audit.after = snap(after)
      return { customer_id: id, token_version: Number(after.token_version) }
    },
  )
}
