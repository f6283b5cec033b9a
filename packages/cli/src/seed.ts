import type { Logger } from '@switchboard/platform'
import { randomSecret } from './secrets.ts'
import { loadUnit, type UnitApp } from './units.ts'

export interface DemoAccount {
  username: string
  /** undefined when the account already existed (its password is whatever it was set to) */
  password: string | undefined
  created: boolean
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
}

/** Demo accounts from ADMIN_USERNAME/ADMIN_PASSWORD and AGENT_USERNAME/AGENT_PASSWORD; random passwords otherwise. */
export function demoAccounts(env: NodeJS.ProcessEnv) {
  return {
    tenant_id: env.DEMO_TENANT ?? 'demo',
    workspace_id: env.DEMO_WORKSPACE ?? 'main',
    admin: { username: env.ADMIN_USERNAME ?? 'admin', password: env.ADMIN_PASSWORD ?? randomSecret(12) },
    agent: { username: env.AGENT_USERNAME ?? 'agent', password: env.AGENT_PASSWORD ?? randomSecret(12) },
  }
}

/** Seeds through identity's own `seedDemo`, given a built identity app (listening or not). */
export async function seedWithIdentity(identity: UnitApp, opts: SeedOptions): Promise<DemoSeed> {
  const mod = await loadUnit('identity')
  const seedDemo = mod.seedDemo as ((app: unknown, input: unknown) => Promise<unknown>) | undefined
  if (typeof seedDemo !== 'function') throw new Error('@switchboard/identity does not export seedDemo')
  const wanted = demoAccounts(opts.env)
  const result = (await seedDemo(identity, wanted)) as Partial<Record<'admin' | 'agent', { created?: boolean }>>
  const account = (k: 'admin' | 'agent'): DemoAccount => {
    const created = result?.[k]?.created ?? true
    return { username: wanted[k].username, password: created ? wanted[k].password : undefined, created }
  }
  return {
    tenant_id: wanted.tenant_id,
    workspace_id: wanted.workspace_id,
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
  const app = await mod.build(mod.loadConfig({ ...opts.env, PORT: '0' }), {
    logger: opts.logger.child({ unit: 'seed' }),
  })
  try {
    return await seedWithIdentity(app, opts)
  } finally {
    await app.close()
  }
}
