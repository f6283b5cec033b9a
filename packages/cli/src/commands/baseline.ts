import type { Command } from 'commander'
import { loadUnit } from '../units.ts'

type Finding = string | { id?: string; code?: string; message?: string; severity?: string }

function describe(f: Finding): string {
  if (typeof f === 'string') return f
  const id = f.id ?? f.code
  return [f.severity ? `[${f.severity}]` : '', id ? `${id}:` : '', f.message ?? JSON.stringify(f)]
    .filter(Boolean)
    .join(' ')
}

/** Runs the gateway's own baseline check against the gateway configuration the environment gives. */
export async function runBaseline(env: NodeJS.ProcessEnv): Promise<string[]> {
  const gateway = await loadUnit('gateway')
  const check = (gateway.securityBaseline ?? gateway.checkSecurityBaseline) as
    | ((config: unknown) => unknown)
    | undefined
  if (typeof check !== 'function') throw new Error('@switchboard/gateway exports no securityBaseline(config)')
  const result = (await check(gateway.loadConfig(env))) as Finding[] | { findings: Finding[] }
  const findings = Array.isArray(result) ? result : (result?.findings ?? [])
  return findings.map(describe)
}

export function registerBaseline(program: Command) {
  program
    .command('security-baseline')
    .alias('check-security-baseline')
    .description('check the configuration from the environment against the security baseline')
    .option('--strict', 'exit non-zero when there is any finding')
    .action(async (o: { strict?: boolean }) => {
      const findings = await runBaseline(process.env)
      if (findings.length === 0) {
        process.stdout.write('security baseline: no findings\n')
        return
      }
      process.stdout.write(`security baseline: ${findings.length} finding(s)\n`)
      for (const f of findings) process.stdout.write(`  - ${f}\n`)
      if (o.strict) process.exitCode = 1
    })
}
