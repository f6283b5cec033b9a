import { callerOf, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { addCustomerNote, type CustomerUpdate, createCustomer, patchCustomer } from '../commands/customers.commands.ts'
import { revokeUserTokensCommand } from '../commands/user-tokens.commands.ts'
import type { IdentityService } from '../context.ts'
import {
  type CustomerRow,
  customerStats,
  customerView,
  findCustomerInScope,
  listCustomers,
  listNotes,
  noteView,
} from '../db/customers.repository.ts'
import { IdentityErrors } from '../errors.ts'
import {
  CreateCustomerBody,
  CustomerIdParams,
  CustomerListQuery,
  CustomerPage,
  CustomerRevokeResult,
  CustomerSchema,
  CustomerStats,
  NoteBody,
  NoteList,
  NoteSchema,
  TagsBody,
  UpdateCustomerBody,
} from '../schemas/customers.schemas.ts'
import { managementErrors, requireAccess } from './access.ts'
import { userTokenSnapshot } from './snapshots.ts'

const tags = ['customers']

/** The customer directory: records bound to one tenant/workspace and filtered by it (docs/api.md §4). */
export const customerRoutes: RouteModule<IdentityService> = async (app, svc) => {
  const read = requireAccess('customers.read')
  const write = requireAccess('customers.write')

  async function customerOr404(request: FastifyRequest, id: string): Promise<CustomerRow> {
    const customer = await findCustomerInScope(svc.db, id, scopeOf(request))
    if (!customer) throw new IdentityErrors.CustomerNotFound()
    return customer
  }

  /** update and tags: the audit snapshot holds what the route changes. */
  async function patch(request: FastifyRequest, id: string, p: CustomerUpdate, snapshot: (c: CustomerRow) => unknown) {
    request.audit.resource_id = id
    const { before, after } = await patchCustomer(svc, callerOf(request), id, p)
    request.audit.before = snapshot(before)
    request.audit.after = snapshot(after)
    return customerView(after)
  }

  app.post(
    '/api/customers',
    {
      preValidation: write,
      schema: { tags, body: CreateCustomerBody, response: { 201: CustomerSchema, ...managementErrors } },
    },
    async (request, reply) => {
      const customer = await createCustomer(svc, callerOf(request), request.body)
      request.audit.resource_id = customer.id
      request.audit.after = customerView(customer)
      return reply.code(201).send(customerView(customer))
    },
  )

  app.get(
    '/api/customers',
    {
      preValidation: read,
      schema: { tags, querystring: CustomerListQuery, response: { 200: CustomerPage, ...managementErrors } },
    },
    async (request) => {
      const { search, source, tag, industry, priority } = request.query
      const window = pageWindow(request.query)
      const filter = { search, source, tag, industry, priority }
      const { rows, total } = await listCustomers(svc.db, svc.dialect, scopeOf(request), filter, window)
      return pageOf(rows.map(customerView), total, window)
    },
  )

  // A static segment: the router prefers it to `/:id`, so `stats` is never taken for a customer id.
  app.get(
    '/api/customers/stats',
    { preValidation: read, schema: { tags, response: { 200: CustomerStats, ...managementErrors } } },
    async (request) => {
      const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString()
      return customerStats(svc.db, scopeOf(request), since)
    },
  )

  app.get(
    '/api/customers/:id',
    {
      preValidation: read,
      schema: { tags, params: CustomerIdParams, response: { 200: CustomerSchema, ...managementErrors } },
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
        response: { 200: CustomerSchema, ...managementErrors },
      },
    },
    async (request) => {
      const body = request.body
      const p: CustomerUpdate = { ...body, ...(body.email ? { email: body.email.toLowerCase() } : {}) }
      return patch(request, request.params.id, p, customerView)
    },
  )

  app.put(
    '/api/customers/:id/tags',
    {
      preValidation: write,
      schema: {
        tags,
        params: CustomerIdParams,
        body: TagsBody,
        response: { 200: CustomerSchema, ...managementErrors },
      },
    },
    async (request) =>
      patch(request, request.params.id, { tags: request.body.tags }, (c) => ({ tags: customerView(c).tags })),
  )

  app.get(
    '/api/customers/:id/notes',
    {
      preValidation: read,
      schema: { tags, params: CustomerIdParams, response: { 200: NoteList, ...managementErrors } },
    },
    async (request) => {
      const customer = await customerOr404(request, request.params.id)
      const items = (await listNotes(svc.db, customer.id)).map(noteView)
      return { count: items.length, items }
    },
  )

  app.post(
    '/api/customers/:id/notes',
    {
      preValidation: write,
      schema: { tags, params: CustomerIdParams, body: NoteBody, response: { 201: NoteSchema, ...managementErrors } },
    },
    async (request, reply) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { content, note: text } = request.body
      if (content && text && content !== text) throw new IdentityErrors.InvalidInput('body: content and note disagree')
      const note = await addCustomerNote(svc, callerOf(request), id, (content ?? text) as string)
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
      schema: { tags, params: CustomerIdParams, response: { 200: CustomerRevokeResult, ...managementErrors } },
    },
    async (request) => {
      const { id } = request.params
      request.audit.resource_id = id
      const { before, after } = await revokeUserTokensCommand(svc, callerOf(request), { customer_id: id })
      request.audit.before = userTokenSnapshot(before)
      request.audit.after = userTokenSnapshot(after)
      return { customer_id: id, token_version: Number(after.token_version) }
    },
  )
}
