import { callerOf, errorResponses, optionalBody, type RouteModule, scopeOf } from '@switchboard/platform'
import { processQueue } from '../commands/queue.commands.ts'
import { waitingRecords } from '../commands/queue-info.ts'
import { cancelWaiting, toAgent, toHuman } from '../commands/transfer.commands.ts'
import type { ConversationsService } from '../context.ts'
import { findSessionRow } from '../db/sessions.repository.ts'
import { latestTransfers, toTransferRecord } from '../db/transfer-history.repository.ts'
import { transfersOf } from '../db/transfers.repository.ts'
import { autoTransfer } from '../domain/auto-transfer.ts'
import { ConversationErrors } from '../errors.ts'
import {
  CancelBody,
  CancelResult,
  CheckAutoBody,
  CheckAutoResult,
  HistoryParams,
  HistoryQuery,
  ProcessQueueBody,
  ProcessQueueResult,
  ToAgentBody,
  ToHumanBody,
  TransferList,
  TransferResult,
  WaitingList,
  WaitingQuery,
} from '../schemas/transfer.schemas.ts'

const tags = ['session-transfer']
const PREFIX = '/api/session-transfer'

/**
 * `/api/session-transfer/*` (the earlier system's paths and bodies): hand-overs to a human or a named agent, the
 * waiting queue and the history. Refusals are 404 / 409 / 400 with codes, never the earlier system's 500s.
 */
export const transferRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  /** The session of the caller's scope, or 404 like a missing one. */
  async function sessionInScope(id: string, request: Parameters<typeof scopeOf>[0]) {
    const row = await findSessionRow(svc.db, id, scopeOf(request))
    if (!row) throw new ConversationErrors.SessionNotFound(id)
    return row
  }

  app.post(
    `${PREFIX}/to-human`,
    {
      schema: { tags, body: ToHumanBody, response: { 200: TransferResult, ...errorResponses(400, 401, 404, 409) } },
    },
    async (request) => {
      const { result, before, after } = await toHuman(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: result.session_id, before, after }
      return result
    },
  )

  app.post(
    `${PREFIX}/to-agent`,
    {
      schema: { tags, body: ToAgentBody, response: { 200: TransferResult, ...errorResponses(400, 401, 404, 409) } },
    },
    async (request) => {
      const { result, before, after } = await toAgent(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: result.session_id, before, after }
      return result
    },
  )

  app.get(
    `${PREFIX}/waiting`,
    { schema: { tags, querystring: WaitingQuery, response: { 200: WaitingList, ...errorResponses(400, 401) } } },
    async (request) => {
      const items = await waitingRecords(
        svc.db,
        scopeOf(request),
        request.query.status ?? 'waiting',
        request.query.limit ?? 50,
      )
      return { count: items.length, items }
    },
  )

  app.post(
    `${PREFIX}/cancel`,
    { schema: { tags, body: CancelBody, response: { 200: CancelResult, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const { before, after, ...answer } = await cancelWaiting(
        svc,
        callerOf(request),
        request.body.session_id,
        request.body.reason,
      )
      request.audit = { ...request.audit, resource_id: answer.session_id, before, after }
      return answer
    },
  )

  // A bare POST runs a pass over the caller's scope (an unscoped admin's: every scope); a body, if any, is `{}`.
  app.post(
    `${PREFIX}/process-queue`,
    {
      preValidation: optionalBody,
      schema: { tags, body: ProcessQueueBody, response: { 200: ProcessQueueResult, ...errorResponses(400, 401) } },
    },
    async (request) => processQueue(svc, scopeOf(request)),
  )

  app.get(
    `${PREFIX}/history`,
    { schema: { tags, querystring: HistoryQuery, response: { 200: TransferList, ...errorResponses(400, 401) } } },
    async (request) => {
      const items = (await latestTransfers(svc.db, scopeOf(request), request.query.limit ?? 50)).map(toTransferRecord)
      return { count: items.length, items }
    },
  )

  app.get(
    `${PREFIX}/history/:session_id`,
    {
      schema: {
        tags,
        params: HistoryParams,
        querystring: HistoryQuery,
        response: { 200: TransferList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const session = await sessionInScope(request.params.session_id, request)
      const items = (await transfersOf(svc.db, session.id, request.query.limit ?? 50)).map(toTransferRecord)
      return { count: items.length, items }
    },
  )

  app.post(
    `${PREFIX}/check-auto`,
    { schema: { tags, body: CheckAutoBody, response: { 200: CheckAutoResult, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const session = await sessionInScope(request.body.session_id, request)
      request.audit = { ...request.audit, resource_id: session.id }
      return { session_id: session.id, ...autoTransfer(request.body.messages) }
    },
  )
}
