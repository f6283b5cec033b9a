import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '@switchboard/platform'
import { secretsDir } from './secrets.ts'
import { loadUnit, type UnitApp } from './units.ts'

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

interface IdentitySeedResult {
  tenant_id: string
  workspace_id: string
  admin: { username: string; password: string | null; created: boolean }
  agent: { username: string; password: string | null; created: boolean }
}

type SeedDemo = (app: unknown, opts: Record<string, string | undefined>) => Promise<IdentitySeedResult>

function passwordFile(dataDir: string, role: 'admin' | 'agent') {
  return join(secretsDir(dataDir), `${role}_password`)
}

/**
 * Seeds through identity's own `seedDemo` (idempotent), given a built identity app (listening or not).
 * ADMIN_PASSWORD / AGENT_PASSWORD are made current when given; otherwise identity generates one when it
 * creates the account, and it is kept under DATA_DIR so a restart can show it again (a restart never
 * resets a password that was not given).
 */
export async function seedWithIdentity(identity: UnitApp, opts: SeedOptions): Promise<DemoSeed> {
  const mod = await loadUnit('identity')
  const seedDemo = mod.seedDemo as SeedDemo | undefined
  if (typeof seedDemo !== 'function') throw new Error('@switchboard/identity does not export seedDemo')
  const { env, dataDir } = opts
  const result = await seedDemo(identity, {
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    agentUsername: env.AGENT_USERNAME || undefined,
    agentPassword: env.AGENT_PASSWORD || undefined,
  })
  const account = (role: 'admin' | 'agent'): DemoAccount => {
    const r = result[role]
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
 * The fleet's one-off seed: builds an identity instance (not listening) on the fleet's own database, cache and
 * bus, seeds through it, and closes it.
 */
export async function seedOneOff(opts: SeedOptions): Promise<DemoSeed> {
  const mod = await loadUnit('identity')
  const env = { ...opts.env, PORT: '0', SEED_DEMO: 'false' }
  const app = await mod.build(mod.loadConfig(env), { logger: opts.logger.child({ unit: 'seed' }) })
  try {
    return await seedWithIdentity(app, opts)
  } finally {
    await app.close()
  }
}
