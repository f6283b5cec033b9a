import type { Command } from 'commander'
import { mintServiceToken } from '../service-token.ts'

/** Where the registry is reached, and the secret to mint the call's token with (or a token of one's own). */
export interface GatewayFlags {
  gateway?: string
  dataDir?: string
  token?: string
  json?: boolean
}

interface Tenant {
  id: string
  name: string
  status: string
  settings: { public_registration: boolean; widget_enabled: boolean }
  workspaces?: Array<{ id: string; name: string; status: string }>
}

/** Long enough for one command, short enough that a leaked one is soon worthless. */
const TOKEN_TTL_SECONDS = 300
const DEFAULT_GATEWAY = 'http://127.0.0.1:8080'
const WORKSPACE_SPEC = /^([a-z0-9][a-z0-9_-]{1,62})(?::(.+))?$/

/** `W` or `W:name` of `--workspace`: the workspace id and, when given, its display name. */
export function parseWorkspaceSpec(spec: string): { id: string; name?: string } {
  const m = WORKSPACE_SPEC.exec(spec.trim())
  if (!m?.[1]) throw new Error(`--workspace ${spec}: expected W or W:name (W a lower-case slug)`)
  return m[2] ? { id: m[1], name: m[2].trim() } : { id: m[1] }
}

/**
 * One call to the gateway's registry API as a platform service: a token minted here (unscoped, `security.*` unless
 * the command needs more, five minutes) with the JWT secret of JWT_SECRET[_FILE] or of the embedded data directory — or `--token`'s, where a
 * command takes one (a tenant administrator's own, so the audit trail names them).
 */
export async function registry(
  o: GatewayFlags,
  method: string,
  path: string,
  body?: unknown,
  permissions: readonly string[] = ['security.*'],
) {
  const base = o.gateway ?? process.env.SWITCHBOARD_GATEWAY ?? DEFAULT_GATEWAY
  const token =
    o.token ??
    (
      await mintServiceToken({
        service: 'switchboard-cli',
        permissions: [...permissions],
        ttlSeconds: TOKEN_TTL_SECONDS,
        dataDir: o.dataDir,
      })
    ).token
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  let json: Record<string, any> = {}
  try {
    json = text ? JSON.parse(text) : {}
  } catch {
    // a proxy's HTML error page: reported as text below
  }
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${json.code ?? ''} ${json.message ?? text}`.trim())
  return json
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no')

export function withGateway(cmd: Command): Command {
  return cmd
    .option('--gateway <url>', `the gateway (env SWITCHBOARD_GATEWAY, default ${DEFAULT_GATEWAY})`)
    .option('--data-dir <dir>', 'where an embedded start stored its JWT secret (env DATA_DIR, default ./data)')
    .option('--json', 'print the answer as JSON')
}

export function print(o: GatewayFlags, value: unknown, text: string) {
  process.stdout.write(o.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`)
}

/**
 * `switchboard tenant create|list|disable|enable|erase|erasure`: the tenant registry, for operators
 * (services/identity/README.md); erase and erasure in tenant-erasure.ts.
 */
export function registerTenant(program: Command): Command {
  const tenant = program
    .command('tenant')
    .description('the tenant registry, through the gateway as a platform service (JWT_SECRET[_FILE] or the data dir)')

  withGateway(tenant.command('create <tenant_id>'))
    .description('register a tenant (active) and its first workspaces')
    .requiredOption('--name <name>', 'display name')
    .option('--workspace <spec...>', 'a workspace as W or W:name (repeatable)')
    .option('--no-public-registration', 'refuse anonymous self-registration into it')
    .option('--no-widget', 'keep the customer widget off')
    .action(
      async (
        id: string,
        o: GatewayFlags & { name: string; workspace?: string[]; publicRegistration: boolean; widget: boolean },
      ) => {
        const workspaces = (o.workspace ?? []).map(parseWorkspaceSpec)
        const settings = { public_registration: o.publicRegistration, widget_enabled: o.widget }
        const created = (await registry(o, 'POST', '/api/security/tenants', {
          id,
          name: o.name,
          settings,
          // the tenant's settings hold for all its workspaces (a workspace's own only narrow them)
          workspaces,
        })) as Tenant
        const names = (created.workspaces ?? []).map((w) => w.id).join(', ')
        print(o, created, `created tenant ${created.id} (${created.name})${names ? ` with workspaces ${names}` : ''}`)
      },
    )

  withGateway(tenant.command('list'))
    .description('every tenant: id, status, registration, widget, name')
    .action(async (o: GatewayFlags) => {
      const all: Tenant[] = []
      for (let page = 1; ; page++) {
        const res = await registry(o, 'GET', `/api/security/tenants?page=${page}&page_size=200`)
        all.push(...(res.data as Tenant[]))
        if (page >= Number(res.pages)) break
      }
      const rows = all.map((x) =>
        [
          x.id.padEnd(24),
          x.status.padEnd(9),
          `registration=${yesNo(x.settings.public_registration)}`.padEnd(17),
          `widget=${yesNo(x.settings.widget_enabled)}`.padEnd(11),
          x.name,
        ].join('  '),
      )
      print(o, { count: all.length, items: all }, [`${all.length} tenant(s)`, ...rows].join('\n'))
    })

  for (const [verb, past] of [
    ['disable', 'disabled'],
    ['enable', 'enabled'],
  ] as const) {
    withGateway(tenant.command(`${verb} <tenant_id>`))
      .description(
        verb === 'disable'
          ? 'disable a tenant: its logins, registrations and new records are refused, and its tokens at the gateway'
          : 'enable a disabled tenant again',
      )
      .action(async (id: string, o: GatewayFlags) => {
        const res = (await registry(o, 'POST', `/api/security/tenants/${encodeURIComponent(id)}/${verb}`)) as Tenant
        print(o, res, `tenant ${res.id} ${past}`)
      })
  }

  return tenant
}
