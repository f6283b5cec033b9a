import type { Command } from 'commander'
import { GATEWAY, loadUnit } from '../units.ts'

type Finding = string | { id?: string; code?: string; message?: string; severity?: string }

function describe(f: Finding): string {
  if (typeof f === 'string') return f
  const id = f.id ?? f.code
  return [f.severity ? `[${f.severity}]` : '', id ? `${id}:` : '', f.message ?? JSON.stringify(f)]
    .filter(Boolean)
    .join(' ')
}

export class InvalidConfig extends Error {
  override name = 'InvalidConfig'
}

/** Runs the gateway's own baseline check against the gateway configuration the environment gives. */
export async function runBaseline(env: NodeJS.ProcessEnv): Promise<string[]> {
  const gateway = await loadUnit(GATEWAY)
  const check = (gateway.securityBaseline ?? gateway.checkSecurityBaseline) as
    | ((config: unknown) => unknown)
    | undefined
  if (typeof check !== 'function') throw new Error('@switchboard/gateway exports no securityBaseline(config)')
  let config: unknown
  try {
    config = gateway.loadConfig(env)
  } catch (err) {
    throw new InvalidConfig((err as Error).message, { cause: err })
  }
  const result = (await check(config)) as Finding[] | { findings: Finding[] }
  const findings = Array.isArray(result) ? result : (result?.findings ?? [])
  return [...findings, ...fleetSecretFindings(env), ...widgetFindings(env)].map(describe)
}

/** Below this many characters a key of the fleet's own secrets is reported as weak. */
const MIN_KEY_LENGTH = 32

/**
 * The secrets of the fleet beyond the gateway's: config-governance's key of stored provider and LLM keys
 * (CONFIG_ENCRYPTION_KEY). Without one the service derives it from INTERNAL_SECRET, which is fine on a laptop and
 * not in production (one leaked secret would open both).
 */
export function fleetSecretFindings(env: NodeJS.ProcessEnv): Finding[] {
  const key = env.CONFIG_ENCRYPTION_KEY_FILE ? 'file' : env.CONFIG_ENCRYPTION_KEY
  if (!key) {
    return [
      {
        id: 'config_encryption_key_missing',
        severity: 'medium',
        message: 'CONFIG_ENCRYPTION_KEY is not set: stored secrets are sealed under a key derived from INTERNAL_SECRET',
      },
    ]
  }
  if (key !== 'file' && key.length < MIN_KEY_LENGTH) {
    return [
      {
        id: 'config_encryption_key_weak',
        severity: 'medium',
        message: `CONFIG_ENCRYPTION_KEY is shorter than ${MIN_KEY_LENGTH} characters`,
      },
    ]
  }
  return []
}

/**
 * The chat widget's embed allow-list (issue 21). Each workspace's `widget.allowed_origins` is governed configuration
 * in config-governance's database, which this check does not read; what it sees is the fleet's system default
 * (PORTAL_WIDGET_ALLOWED_ORIGINS), the list of every workspace that sets none. Empty in production: a copy of the
 * snippet on any site gets chat in such a workspace's name.
 */
export function widgetFindings(env: NodeJS.ProcessEnv): Finding[] {
  const environment = env.SERVER_ENVIRONMENT ?? env.ENVIRONMENT ?? 'development'
  if (environment !== 'production') return []
  const origins = (env.PORTAL_WIDGET_ALLOWED_ORIGINS ?? '').split(',').filter((s) => s.trim() !== '')
  if (origins.length > 0) return []
  return [
    {
      id: 'widget_origins_open',
      severity: 'medium',
      message:
        'PORTAL_WIDGET_ALLOWED_ORIGINS is empty in production: a workspace without its own widget.allowed_origins lets any site embed its widget',
    },
  ]
}

export function registerBaseline(program: Command) {
  program
    .command('security-baseline')
    .alias('check-security-baseline')
    .description('check the configuration from the environment against the security baseline')
    .option('--strict', 'exit non-zero when there is any finding')
    .action(async (o: { strict?: boolean }) => {
      let findings: string[]
      try {
        findings = await runBaseline(process.env)
      } catch (err) {
        if (!(err instanceof InvalidConfig)) throw err
        // The gateway would refuse to start with this configuration at all: worse than any finding.
        process.stderr.write(`security baseline: the gateway configuration is invalid\n${(err as Error).message}\n`)
        process.exitCode = 2
        return
      }
      if (findings.length === 0) {
        process.stdout.write('security baseline: no findings\n')
        return
      }
      process.stdout.write(`security baseline: ${findings.length} finding(s)\n`)
      for (const f of findings) process.stdout.write(`  - ${f}\n`)
      if (o.strict) process.exitCode = 1
    })
}
