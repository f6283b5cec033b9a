import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '@switchboard/platform'
import { secretsDir } from './secrets.ts'
import { loadUnit, type RunnableUnit, type UnitApp, type UnitModule } from './units.ts'

export interface DemoAccount {
  username: string
  /** the password to log in with; undefined when the account existed and its password is not known here */
  password: string | undefined
  created: boolean
  /** where the password was stored (generated passwords only) */
  stored_in?: string
}

export interface DemoSeed {
  tenant_id: string
  workspace_id: string
  admin: DemoAccount
  agent: DemoAccount
}

export interface SeedOptions {
  env: NodeJS.ProcessEnv
  logger: Logger
  /** generated passwords are kept here (mode 0600) so the banner can show them again on the next start */
  dataDir: string
}

/** What identity's seed answers (its descriptor's `seed`): the demo scope and the two accounts. */
interface IdentitySeedResult {
  tenant_id: string
  workspace_id: string
  admin: { username: string; password: string | null; created: boolean }
  agent: { username: string; password: string | null; created: boolean }
}

function passwordFile(dataDir: string, role: 'admin' | 'agent') {
  return join(secretsDir(dataDir), `${role}_password`)
}

/**
 * Seeds every unit whose descriptor has a seed, given the built apps (listening or not), in registry order;
 * the demo accounts come from identity's. ADMIN_PASSWORD / AGENT_PASSWORD are made current when given;
 * otherwise identity generates one when it creates the account, and it is kept under DATA_DIR so a restart
 * can show it again (a restart never resets a password that was not given).
 */
export async function seedUnits(
  apps: ReadonlyArray<{ unit: RunnableUnit; module: UnitModule; app: UnitApp }>,
  opts: SeedOptions,
): Promise<DemoSeed | undefined> {
  const { env, dataDir } = opts
  const seedOpts = {
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    agentUsername: env.AGENT_USERNAME || undefined,
    agentPassword: env.AGENT_PASSWORD || undefined,
  }
  let result: IdentitySeedResult | undefined
  for (const { unit, module, app } of apps) {
    const seeded = await module.service?.seed?.(app, seedOpts)
    if (unit.name === 'identity') result = seeded as IdentitySeedResult
  }
  if (!result) return undefined
  const r0 = result
  const account = (role: 'admin' | 'agent'): DemoAccount => {
    const r = r0[role]
    const given = role === 'admin' ? env.ADMIN_PASSWORD : env.AGENT_PASSWORD
    const file = passwordFile(dataDir, role)
    if (r.password && !given) {
      mkdirSync(secretsDir(dataDir), { recursive: true, mode: 0o700 })
      writeFileSync(file, `${r.password}\n`, { mode: 0o600 })
      return { username: r.username, password: r.password, created: r.created, stored_in: file }
    }
    if (r.password) return { username: r.username, password: r.password, created: r.created }
    const stored = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined
    return {
      username: r.username,
      password: stored || undefined,
      created: r.created,
      stored_in: stored ? file : undefined,
    }
  }
  return {
    tenant_id: result.tenant_id,
    workspace_id: result.workspace_id,
    admin: account('admin'),
    agent: account('agent'),
  }
}

/**
 * The fleet's one-off seed: builds each seeding unit (not listening) on the fleet's own database, cache and bus,
 * seeds through it, and closes it.
 */
export async function seedOneOff(
  units: readonly RunnableUnit[],
  unitEnv: (unit: RunnableUnit) => NodeJS.ProcessEnv,
  opts: SeedOptions,
): Promise<DemoSeed | undefined> {
  const built: Array<{ unit: RunnableUnit; module: UnitModule; app: UnitApp }> = []
  try {
    for (const unit of units) {
      const module = await loadUnit(unit)
      if (!module.service?.seed) continue
      const env = { ...unitEnv(unit), PORT: '0', SEED_DEMO: 'false' }
      const app = await module.build(module.loadConfig(env), { logger: opts.logger.child({ unit: 'seed' }) })
      built.push({ unit, module, app })
    }
    return await seedUnits(built, opts)
  } finally {
    for (const { app } of built) await app.close()
  }
}
