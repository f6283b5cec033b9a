#!/usr/bin/env node
import { Command } from 'commander'
import { registerBaseline } from './commands/baseline.ts'
import { registerCustomer } from './commands/customer.ts'
import { registerDlq } from './commands/dlq.ts'
import { registerNamespace } from './commands/namespace.ts'
import { registerRun } from './commands/run.ts'
import { registerStats } from './commands/stats.ts'
import { registerTenant } from './commands/tenant.ts'
import { registerTenantErasure } from './commands/tenant-erasure.ts'
import { registerToken } from './commands/token.ts'

const program = new Command('switchboard')
  .description('Switchboard: run it (embedded or fleet) and operate it')
  .showHelpAfterError()
registerRun(program)
registerDlq(program)
registerToken(program)
registerBaseline(program)
registerNamespace(program)
registerTenantErasure(registerTenant(program))
registerStats(program)
registerCustomer(program)

try {
  await program.parseAsync(process.argv)
} catch (err) {
  process.stderr.write(`switchboard: ${(err as Error).message}\n`)
  process.exitCode = 1
}
