import { randomBytes, randomUUID } from 'node:crypto'
import { IdentityEvents } from '@switchboard/contracts'
import type { FastifyInstance } from 'fastify'
import type { Transaction } from 'kysely'
import type { IdentityConfig } from './config.ts'
import { insertAgentBinding } from './db/bindings.repository.ts'
import type { IdentityDatabase } from './db/database.ts'
import { findUserByUsername, insertUser, ROLES, type UserRow, updateUserPassword } from './db/users.repository.ts'
import { publishUserTokenState } from './domain/revocation.ts'
import { emit, emitUserRegistered, inTransaction } from './events/publish.ts'

export const DEMO_SCOPE = { tenant_id: 'demo', workspace_id: 'main' } as const

export interface SeedOptions {
  adminUsername?: string
  /** empty or absent: generated when the admin is created */
  adminPassword?: string
  agentUsername?: string
  agentPassword?: string
}

export interface SeededAccount {
  username: string
  /** the password to print: given or generated; null when the account existed and no password was given */
  password: string | null
  created: boolean
  user_id: string
}

export interface SeedResult {
  tenant_id: string
  workspace_id: string
  admin: SeededAccount
  agent: SeededAccount
}

/** SEED_DEMO=true: seed when the app is ready and say how to log in (a generated password is shown once). */
export function installSeeding(app: FastifyInstance, seed: IdentityConfig['seed']) {
  app.addHook('onReady', async () => {
    const r = await seedDemo(app, {
      adminUsername: seed.admin_username,
      adminPassword: seed.admin_password,
      agentUsername: seed.agent_username,
      agentPassword: seed.agent_password,
    })
    app.log.info(
      { tenant_id: r.tenant_id, workspace_id: r.workspace_id, admin: r.admin.username, agent: r.agent.username },
      'demo tenant seeded',
    )
    for (const [account, given] of [
      [r.admin, seed.admin_password],
      [r.agent, seed.agent_password],
    ] as const) {
      // In the message, not a field: the logger redacts *.password, and an unseen generated password is useless.
      if (account.created && !given)
        app.log.warn(`demo account ${account.username}: generated password ${account.password}`)
    }
  })
}

const generatePassword = () => randomBytes(12).toString('base64url')

/**
 * The embedded default's demo tenant (API-NOTES.md, Tenancy): tenant `demo`, workspace `main`, an admin and an
 * agent, each with an agents record there, so both log in with tokens scoped to demo/main. Idempotent: existing
 * accounts are kept; a password given explicitly is made current.
 */
export async function seedDemo(app: FastifyInstance, opts: SeedOptions = {}): Promise<SeedResult> {
  const admin = await ensureAccount(
    app,
    opts.adminUsername || 'admin',
    opts.adminPassword,
    ROLES.admin,
    'Administrator',
  )
  const agent = await ensureAccount(app, opts.agentUsername || 'agent', opts.agentPassword, ROLES.agent, 'Demo Agent')
  return { ...DEMO_SCOPE, admin, agent }
}

async function ensureAccount(
  app: FastifyInstance,
  username: string,
  given: string | undefined,
  role: string,
  name: string,
): Promise<SeededAccount> {
  const password = given || generatePassword()
  const hash = await app.identity.passwords.hash(password)
  return inTransaction(app, async (trx) => {
    const now = new Date().toISOString()
    let user = await findUserByUsername(trx, username)
    const created = !user
    if (!user) {
      user = await insertUser(trx, {
        id: randomUUID(),
        username,
        email: `${username}@demo.example.com`,
        password_hash: hash,
        name,
        phone: '',
        role,
        now,
      })
      const ctx = { trx, outbox: app.outbox, from: DEMO_SCOPE }
      await emitUserRegistered(ctx, user)
      await publishUserTokenState(ctx, user, 'registered')
    } else if (given && !(await app.identity.passwords.verify(user.password_hash, given))) {
      user = (await updateUserPassword(trx, user.id, hash, now)) ?? user
    }
    await ensureAgentRecord(app, trx, user, now)
    return { username, password: created || given ? password : null, created, user_id: user.id }
  })
}

async function ensureAgentRecord(app: FastifyInstance, trx: Transaction<IdentityDatabase>, user: UserRow, now: string) {
  const existing = await trx
    .selectFrom('agents')
    .select('id')
    .where('user_id', '=', user.id)
    .where('tenant_id', '=', DEMO_SCOPE.tenant_id)
    .where('workspace_id', '=', DEMO_SCOPE.workspace_id)
    .executeTakeFirst()
  if (existing) return
  const agent = await insertAgentBinding(trx, {
    id: randomUUID(),
    user_id: user.id,
    ...DEMO_SCOPE,
    name: user.name,
    department: 'support',
    now,
  })
  await emit({ trx, outbox: app.outbox, from: DEMO_SCOPE }, IdentityEvents.agentUpserted, {
    agent_id: agent.id,
    user_id: user.id,
    name: agent.name,
    department: agent.department,
    skills: [],
    max_concurrent: Number(agent.max_concurrent),
    status: agent.status,
    rating: Number(agent.rating),
    avg_response_time: Number(agent.avg_response_time),
  })
}
