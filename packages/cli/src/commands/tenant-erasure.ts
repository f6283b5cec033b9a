import type { Command } from 'commander'
import { type GatewayFlags, print, registry, withGateway } from './tenant.ts'

interface UnitReport {
  service: string
  counts: Record<string, number>
  reported_at: string
}

/** identity's answer (`/api/security/tenants/:id/erasure`): the tenant, its customers' erasures, its own report. */
interface TenantErasure {
  tenant_id: string
  status: string
  started: number
  erasures: { in_progress: number; completed: number }
  report?: {
    id: string
    status: 'in_progress' | 'completed'
    requested_at: string
    completed_at: string | null
    services: UnitReport[]
    pending: string[]
  }
}

/** Done: the tenant's own report completed and none of its customers' erasures still running. */
const done = (e: TenantErasure) => e.report?.status === 'completed' && e.erasures.in_progress === 0

function describe(e: TenantErasure): string {
  const customers = `customers' erasures: ${e.erasures.completed} completed, ${e.erasures.in_progress} in progress`
  if (!e.report) return `tenant ${e.tenant_id} (${e.status}) has not been erased; ${customers}`
  const lines = [
    `erasure ${e.report.id} of tenant ${e.tenant_id}: ${e.report.status} (tenant ${e.status}; ${customers})`,
  ]
  for (const s of e.report.services) {
    const counts = Object.entries(s.counts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')
    lines.push(`  ${s.service.padEnd(18)} ${counts}`)
  }
  if (e.report.pending.length) lines.push(`  pending: ${e.report.pending.join(', ')}`)
  return lines.join('\n')
}

const path = (id: string) => `/api/security/tenants/${encodeURIComponent(id)}/erasure`

/** The minted token's permissions: identity's erasure routes ask for the registry's and the erasure's. */
const PERMISSIONS = ['security.*', 'customers.erase']

/**
 * `switchboard tenant erase|erasure`: a tenant's self-erasure (right to erasure) and its report, through the gateway
 * (services/identity/README.md, "Erasure and export"); as `switchboard customer erase` for one person.
 */
export function registerTenantErasure(tenant: Command) {
  withGateway(tenant.command('erase <tenant_id>'))
    .description(
      'erase the tenant in every unit and disable it (idempotent: a second call answers with the first erasure)',
    )
    .option('--token <token>', "the tenant administrator's access token (default: a platform service token)")
    .option('--wait <seconds>', 'wait until every unit has reported (0: do not wait)', '60')
    .action(async (id: string, o: GatewayFlags & { wait: string }) => {
      const wait = Number(o.wait)
      if (!Number.isFinite(wait) || wait < 0) throw new Error(`--wait ${o.wait}: expected seconds, 0 or more`)
      let erasure = (await registry(o, 'POST', path(id), undefined, PERMISSIONS)) as TenantErasure
      const deadline = Date.now() + wait * 1000
      // the tenant's own tokens are refused once it is disabled: follow with a platform token
      const follow = { ...o, token: undefined }
      while (!done(erasure) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250))
        erasure = (await registry(follow, 'GET', path(id), undefined, PERMISSIONS)) as TenantErasure
      }
      print(o, erasure, describe(erasure))
      if (wait > 0 && !done(erasure)) process.exitCode = 2
    })

  withGateway(tenant.command('erasure <tenant_id>'))
    .description("the tenant's erasure and what each unit reported")
    .action(async (id: string, o: GatewayFlags) => {
      const erasure = (await registry(o, 'GET', path(id), undefined, PERMISSIONS)) as TenantErasure
      print(o, erasure, describe(erasure))
    })
}
