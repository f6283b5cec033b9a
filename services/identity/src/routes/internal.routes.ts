import { Type } from '@sinclair/typebox'
import {
  DeniedToken,
  DisabledScopesResponse,
  Nullable,
  SessionTokenState,
  UserTokenState,
} from '@switchboard/contracts'
import { callerOf, errorResponses, type RouteModule, scopeOf } from '@switchboard/platform'
import { admitScope } from '../commands/scope-registry.ts'
import { findOrMakeWidgetCustomer } from '../commands/widget-customers.commands.ts'
import type { IdentityService } from '../context.ts'
import { deniedToken, listActiveDenied } from '../db/denylist.repository.ts'
import { findSession, sessionTokenState } from '../db/sessions.repository.ts'
import { listDisabledScopes } from '../db/tenants.repository.ts'
import { findUserById, userTokenState } from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
/** a tenant or workspace id as selectors carry it (docs/api.md §4) */
const ScopeId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' })
const WidgetScope = Type.Object({ tenant_id: ScopeId, workspace_id: ScopeId })
const WidgetCustomerBody = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 320 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
)
const WidgetCustomer = Type.Object({ customer_id: Type.String(), user_id: Type.String(), created: Type.Boolean() })

/**
 * The gateway's token-state cache asks here on a miss (docs/architecture.md §1, rule 3): identity's rows are the
 * source of truth; the realtime hub asks whether a widget may start sessions in a scope. Service principals only.
 */
export const internalRoutes: RouteModule<IdentityService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new IdentityErrors.ServiceOnly()
  })

  app.get(
    '/internal/token-state',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ user_id: Type.Optional(Id), session_id: Type.Optional(Id) }),
        response: {
          200: Type.Object({ user: Nullable(UserTokenState), session: Nullable(SessionTokenState) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { user_id, session_id } = request.query
      const [user, session] = await Promise.all([
        user_id ? findUserById(svc.db, user_id) : undefined,
        session_id ? findSession(svc.db, session_id) : undefined,
      ])
      return { user: user ? userTokenState(user) : null, session: session ? sessionTokenState(session) : null }
    },
  )

  app.get(
    '/internal/token-state/denied',
    {
      schema: {
        hide: true,
        response: { 200: Type.Object({ items: Type.Array(DeniedToken) }), ...errorResponses(401, 403) },
      },
    },
    async () => {
      const rows = await listActiveDenied(svc.db, new Date().toISOString())
      return { items: rows.map(deniedToken) }
    },
  )

  // The realtime hub asks before an anonymous widget visitor's first message starts a session there: the
  // registry's admission rule for the widget (known, active, `widget_enabled` on the tenant and the workspace).
  app.get(
    '/internal/widget-scope',
    {
      schema: {
        hide: true,
        querystring: WidgetScope,
        response: { 200: WidgetScope, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const scope = { tenant_id: request.query.tenant_id, workspace_id: request.query.workspace_id }
      await admitScope(svc.db, scope, 'widget')
      return scope
    },
  )

  // tickets asks for a widget visitor's "leave a message": the scope must take widget visitors (the same rule as
  // above), then the customer of that scope with this e-mail, or a new contact there (source `widget`). Accounts
  // elsewhere are never looked at, so every e-mail gets the same answer (widget-customers.commands.ts).
  app.post(
    '/internal/widget/customers',
    {
      schema: {
        hide: true,
        body: WidgetCustomerBody,
        response: { 200: WidgetCustomer, 201: WidgetCustomer, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request)
      if (!scope.tenant_id || !scope.workspace_id)
        throw new IdentityErrors.ScopeRequired('a widget customer is made in one tenant and workspace')
      const { customer, created } = await findOrMakeWidgetCustomer(svc, callerOf(request), request.body)
      return reply.code(created ? 201 : 200).send({ customer_id: customer.id, user_id: customer.user_id, created })
    },
  )

  // Tokens scoped to a disabled tenant or workspace are refused at the gateway; it loads this list with the
  // denylist and then follows identity.scope.status_changed.
  app.get(
    '/internal/token-state/scopes',
    { schema: { hide: true, response: { 200: DisabledScopesResponse, ...errorResponses(401, 403) } } },
    async () => ({ items: await listDisabledScopes(svc.db) }),
  )
}
