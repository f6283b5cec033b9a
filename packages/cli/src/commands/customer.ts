import { writeFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { mintServiceToken } from '../service-token.ts'

interface CustomerFlags {
  gateway?: string
  dataDir?: string
  token?: string
  tenant: string
  workspace: string
  json?: boolean
}

interface ServiceReport {
  service: string
  counts: Record<string, number>
  reported_at: string
}

interface Erasure {
  erasure_id: string
  customer_id: string
  status: string
  requested_at: string
  completed_at: string | null
  services: ServiceReport[]
  pending: string[]
}

const TOKEN_TTL_SECONDS = 300
const DEFAULT_GATEWAY = 'http://127.0.0.1:8080'
/** The permissions of the token minted when no `--token` is given: the routes' own and the erasure's. */
const MINTED_PERMISSIONS = ['customers.read', 'customers.write', 'customers.erase']

/**
 * One call to the gateway in the customer's workspace: as the administrator whose `--token` is given (the audit
 * trail names them), else as a service minted here for five minutes with exactly the erasure's permissions.
 */
async function call(o: CustomerFlags, method: string, path: string) {
  const base = o.gateway ?? process.env.SWITCHBOARD_GATEWAY ?? DEFAULT_GATEWAY
  const token =
    o.token ??
    (
      await mintServiceToken({
        service: 'switchboard-cli',
        permissions: MINTED_PERMISSIONS,
        ttlSeconds: TOKEN_TTL_SECONDS,
        dataDir: o.dataDir,
      })
    ).token
  const res = await fetch(new URL(path, base), {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-tenant-id': o.tenant, 'x-workspace-id': o.workspace },
  })
  const text = await res.text()
  let json: Record<string, any> = {}
  try {
    json = text ? JSON.parse(text) : {}
  } catch {
    // a proxy's HTML error page: reported as text below
  }
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${json.code ?? ''} ${json.message ?? text}`.trim())
  return { status: res.status, body: json }
}

function describe(e: Erasure): string {
  const lines = [`erasure ${e.erasure_id} of customer ${e.customer_id}: ${e.status}`]
  for (const s of e.services) {
    const counts = Object.entries(s.counts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')
    lines.push(`  ${s.service.padEnd(16)} ${counts}`)
  }
  if (e.pending.length) lines.push(`  pending: ${e.pending.join(', ')}`)
  return lines.join('\n')
}

function withTarget(cmd: Command): Command {
  return cmd
    .requiredOption('--tenant <tenant_id>', "the customer's tenant")
    .requiredOption('--workspace <workspace_id>', "the customer's workspace")
    .option('--gateway <url>', `the gateway (env SWITCHBOARD_GATEWAY, default ${DEFAULT_GATEWAY})`)
    .option('--token <token>', "an administrator's access token (default: a service token minted here)")
    .option('--data-dir <dir>', 'where an embedded start stored its JWT secret (env DATA_DIR, default ./data)')
    .option('--json', 'print the answer as JSON')
}

const path = (id: string, what: string) => `/api/customers/${encodeURIComponent(id)}/${what}`

/**
 * `switchboard customer erase|erasure|export`: the right to erasure and the export of a person's data, through the
 * gateway (services/identity/README.md, "Erasure and export").
 */
export function registerCustomer(program: Command) {
  const customer = program
    .command('customer')
    .description("a customer's erasure (right to erasure) and export, through the gateway")

  withTarget(customer.command('erase <customer_id>'))
    .description('erase the customer in every unit (idempotent: a second call answers with the first erasure)')
    .option('--wait <seconds>', 'wait until every unit has reported (0: do not wait)', '60')
    .action(async (id: string, o: CustomerFlags & { wait: string }) => {
      let erasure = (await call(o, 'POST', path(id, 'erasure'))).body as Erasure
      const deadline = Date.now() + Number(o.wait) * 1000
      while (erasure.status !== 'completed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250))
        erasure = (await call(o, 'GET', path(id, 'erasure'))).body as Erasure
      }
      process.stdout.write(o.json ? `${JSON.stringify(erasure, null, 2)}\n` : `${describe(erasure)}\n`)
      if (Number(o.wait) > 0 && erasure.status !== 'completed') process.exitCode = 2
    })

  withTarget(customer.command('erasure <customer_id>'))
    .description("the customer's erasure and what each unit reported")
    .action(async (id: string, o: CustomerFlags) => {
      const erasure = (await call(o, 'GET', path(id, 'erasure'))).body as Erasure
      process.stdout.write(o.json ? `${JSON.stringify(erasure, null, 2)}\n` : `${describe(erasure)}\n`)
    })

  withTarget(customer.command('export <customer_id>'))
    .description("all of the customer's data, one JSON archive (to --out, else standard output)")
    .option('--out <file>', 'write the archive here (mode 0600)')
    .action(async (id: string, o: CustomerFlags & { out?: string }) => {
      const archive = (await call(o, 'GET', path(id, 'export'))).body
      const text = `${JSON.stringify(archive, null, 2)}\n`
      if (!o.out) return void process.stdout.write(text)
      await writeFile(o.out, text, { mode: 0o600 })
      process.stderr.write(`wrote the export of customer ${id} to ${o.out}\n`)
    })
}
