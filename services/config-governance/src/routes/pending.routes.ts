import { type Caller, errorResponses, optionalBody, type RouteModule } from '@switchboard/platform'
import type { FastifyRequest } from 'fastify'
import { approvePending, closePending, proposeChange } from '../commands/pending.commands.ts'
import type { ScopeAccess, ScopeKind } from '../commands/scope.ts'
import type { ConfigGovernanceService } from '../context.ts'
import type { ScopeKey } from '../db/scoped-configs.repository.ts'
import { listPendingChanges, previewChange, readPending } from '../queries/pending.queries.ts'
import { PutConfigBody } from '../schemas/governance.schemas.ts'
import {
  ApprovePendingResponse,
  DecisionBody,
  PendingIdParams,
  PendingList,
  PendingQuery,
  PendingView,
  PreviewResponse,
} from '../schemas/pending.schemas.ts'
import { changeControlOf, sectionsOf } from './change-control.ts'

type App = Parameters<RouteModule<ConfigGovernanceService>>[0]
type Audited = (verb: string) => (request: FastifyRequest) => Promise<void>
type Scoped = (request: FastifyRequest, access?: ScopeAccess) => { caller: Caller; key: ScopeKey }

const tags = ['scoped-config']

/**
 * `/api/security/config/{kind}/preview` and `…/pending…` (README "Pending changes"): a change's risk before it is
 * sent, and the high-risk changes waiting for a second administrator. Writes are audited as
 * `scoped_config.{kind}.{propose|approve|reject|withdraw}` (approving is the spec's `approve` event and runs the
 * change); the tenant's need a token bound to no workspace, like every tenant write.
 */
export function registerPendingRoutes(
  app: App,
  svc: ConfigGovernanceService,
  kind: ScopeKind,
  audited: Audited,
  scoped: Scoped,
) {
  const base = `/api/security/config/${kind}`

  // a read in a POST (a body to judge): audited as every POST is, nothing stored; read access suffices
  app.post(
    `${base}/preview`,
    {
      onRequest: async (request) => {
        request.audit.action = `scoped_config.${kind}.preview`
        request.audit.resource_type = 'scoped_config'
      },
      schema: { tags, body: PutConfigBody, response: { 200: PreviewResponse, ...errorResponses(400, 401, 403) } },
    },
    async (request) => previewChange(svc, scoped(request).key, sectionsOf(request.body)),
  )

  app.get(
    `${base}/pending`,
    {
      schema: { tags, querystring: PendingQuery, response: { 200: PendingList, ...errorResponses(400, 401, 403) } },
    },
    async (request) => {
      const { caller, key } = scoped(request)
      return listPendingChanges(svc, caller, key, request.query)
    },
  )

  app.get(
    `${base}/pending/:pending_id`,
    {
      schema: {
        tags,
        params: PendingIdParams,
        response: { 200: PendingView, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { caller, key } = scoped(request)
      return readPending(svc, caller, key, request.params.pending_id)
    },
  )

  app.post(
    `${base}/pending`,
    {
      onRequest: audited('propose'),
      schema: { tags, body: PutConfigBody, response: { 201: PendingView, ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const { caller, key } = scoped(request, 'write')
      const cc = changeControlOf(request, request.body)
      const result = await proposeChange(svc, caller, key, cc, sectionsOf(request.body))
      request.audit.before = result.before
      request.audit.after = result.after
      return reply.code(201).send(result.response)
    },
  )

  const decision = (verb: 'approve' | 'reject' | 'withdraw') =>
    ({
      onRequest: audited(verb),
      preValidation: optionalBody,
      schema: {
        tags,
        params: PendingIdParams,
        body: DecisionBody,
        response: {
          200: verb === 'approve' ? ApprovePendingResponse : PendingView,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    }) as const

  app.post(`${base}/pending/:pending_id/approve`, decision('approve'), async (request) => {
    const { caller, key } = scoped(request, 'write')
    const body = { notes: request.body.notes ?? '', evidence: request.body.evidence }
    const result = await approvePending(svc, caller, key, request.params.pending_id, body)
    request.audit.before = result.before
    request.audit.after = result.after
    return result.response
  })

  for (const [verb, how] of [
    ['reject', 'rejected'],
    ['withdraw', 'withdrawn'],
  ] as const) {
    app.post(`${base}/pending/:pending_id/${verb}`, decision(verb), async (request) => {
      const { caller, key } = scoped(request, 'write')
      const result = await closePending(svc, caller, key, request.params.pending_id, how, request.body)
      request.audit.before = result.before
      request.audit.after = result.after
      return result.response
    })
  }
}
