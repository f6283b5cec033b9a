import type { Command } from 'commander'
import { mintServiceToken } from '../service-token.ts'

export function registerToken(program: Command) {
  const token = program.command('token').description('tokens')
  token
    .command('mint')
    .description(
      'mint a service-principal access token (JWT_SECRET / JWT_SECRET_FILE, else the embedded DATA_DIR secret)',
    )
    .requiredOption('--service <name>', 'service name; the principal is service:<name>')
    .requiredOption('--permission <p...>', 'explicit permissions, e.g. audit.read tickets.* (repeatable)')
    .option('--tenant <tenant>', 'scope the token to a tenant')
    .option('--workspace <workspace>', 'and a workspace')
    .option('--ttl <seconds>', 'lifetime in seconds, at most JWT_SERVICE_TTL_MAX_SECONDS (30 days)', '3600')
    .option('--data-dir <dir>', 'where an embedded start stored its secret (env DATA_DIR, default ./data)')
    .option('--json', 'print the token and its claims as JSON')
    .action(
      async (o: {
        service: string
        permission: string[]
        tenant?: string
        workspace?: string
        ttl: string
        dataDir?: string
        json?: boolean
      }) => {
        const minted = await mintServiceToken({
          service: o.service,
          permissions: o.permission
            .flatMap((p) => p.split(','))
            .map((p) => p.trim())
            .filter(Boolean),
          tenant_id: o.tenant,
          workspace_id: o.workspace,
          ttlSeconds: Number(o.ttl),
          dataDir: o.dataDir,
        })
        process.stdout.write(o.json ? `${JSON.stringify(minted, null, 2)}\n` : `${minted.token}\n`)
      },
    )
}
