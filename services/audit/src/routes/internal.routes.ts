import { Type } from '@sinclair/typebox'
import { EventEnvelope } from '@switchboard/contracts'
import { errorResponses, PoisonMessageError, type RouteModule } from '@switchboard/platform'
import { recordAuditEvents } from '../commands/record.commands.ts'
import type { AuditService } from '../context.ts'
import { AuditErrors } from '../errors.ts'

/** As many records as the gateway sends in one hand-over (gateway/src/audit/audit-sink.ts batches up to this). */
export const HANDOVER_MAX_RECORDS = 500

const HandOver = Type.Object(
  { records: Type.Array(EventEnvelope(Type.Unknown()), { minItems: 1, maxItems: HANDOVER_MAX_RECORDS }) },
  { additionalProperties: false },
)
const HandOverResult = Type.Object({
  stored: Type.Integer({ description: 'records written now' }),
  duplicates: Type.Integer({ description: 'records already stored (a retried hand-over)' }),
  rejected: Type.Array(Type.Object({ event_id: Type.String(), error: Type.String() }), {
    description: 'records off their contract, never to be stored (the gateway logs and counts them)',
  }),
})

/**
 * The gateway hands its own audit records (refusals, dead-letter replays) over here instead of publishing them on
 * the bus: the gateway has no database, and a record stored here is as durable as any other, whether NATS is up
 * or not (docs/architecture.md §2). Service principals only; not routed by the gateway (no public prefix).
 */
export const internalRoutes: RouteModule<AuditService> = async (app, svc) => {
  app.addHook('onRequest', async (request) => {
    if (request.principal.kind !== 'service') throw new AuditErrors.ServiceOnly()
  })

  app.post(
    '/internal/audit/records',
    { schema: { hide: true, body: HandOver, response: { 200: HandOverResult, ...errorResponses(400, 401, 403) } } },
    async (request) => {
      const result = { stored: 0, duplicates: 0, rejected: [] as Array<{ event_id: string; error: string }> }
      // one statement for the lot (a record the database refuses is tried alone, and its error answers the request)
      const outcomes = await recordAuditEvents(svc, request.body.records, 'gateway')
      outcomes.forEach((o, i) => {
        if (o.ok) {
          if (o.applied) result.stored++
          else result.duplicates++
        } else if (o.error instanceof PoisonMessageError) {
          result.rejected.push({ event_id: request.body.records[i]!.id, error: o.error.message })
        }
      })
      const failed = outcomes.find((o) => !o.ok && !(o.error instanceof PoisonMessageError))
      if (failed && !failed.ok) throw failed.error
      return result
    },
  )
}
