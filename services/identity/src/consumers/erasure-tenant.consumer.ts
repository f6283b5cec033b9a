import { IdentityTenantErasureEvents, TENANT_ERASURE_REPORTERS, tenantErasureReport } from '@switchboard/contracts'
import { type ConsumerDef, on } from '@switchboard/platform'
import { applyTenantErasureReport, CACHE_REPORTER } from '../commands/tenant-erasure.commands.ts'
import type { IdentityService } from '../context.ts'
import { deleteTenantKeys } from '../db/erasure-cache.ts'

/**
 * Each unit's `<unit>.tenant_erasure.reported`, from the unit's own stream, into the tenant erasure's report (one
 * consumer per stream). Applied once (inbox); the last expected report completes the erasure.
 */
export const tenantErasureReports: ConsumerDef<IdentityService>[] = TENANT_ERASURE_REPORTERS.map((r) => ({
  durable: `identity-tenant-erasure-reports-${r.stream.toLowerCase()}`,
  stream: r.stream,
  subjects: [r.event.type],
  idempotency: 'inbox',
  handlers: [
    on(r.event, async ({ envelope, data }, tx, svc) => {
      const applied = await applyTenantErasureReport(tx, data)
      if (!applied) svc.log.warn({ component: 'erasure', id: envelope.id }, 'report of an unknown tenant erasure')
    }),
  ],
}))

/**
 * The tenant's keys in the shared Redis (rate-limit windows, caches, presence, leases: every key whose name carries
 * the tenant's id), scanned and deleted after the erasure's commit, and reported as its `cache` part. Deleting is
 * idempotent, so a redelivery after a crash scans again; the memory cache of the embedded default has no keyspace to
 * scan (it ends with the process) and reports 0.
 */
export const tenantCacheErasure: ConsumerDef<IdentityService> = {
  durable: 'identity-tenant-erasure-cache',
  stream: 'IDENTITY',
  subjects: [IdentityTenantErasureEvents.requested.type],
  idempotency: 'inbox',
  handlers: [
    on(IdentityTenantErasureEvents.requested, async ({ envelope, data: e }, tx, svc) => {
      const redis_keys_deleted = await deleteTenantKeys(svc.cache, e.tenant_id)
      if (!(await applyTenantErasureReport(tx, tenantErasureReport(e, CACHE_REPORTER, { redis_keys_deleted })))) {
        svc.log.warn({ component: 'erasure', id: envelope.id }, 'cache part of an unknown tenant erasure')
      }
    }),
  ],
}
