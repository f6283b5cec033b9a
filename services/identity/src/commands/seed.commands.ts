import { IdentityEvents } from '@switchboard/contracts'
import { newId, systemCaller } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { findAgentByUserInScope } from '../db/agents.repository.ts'
import { insertAgentBinding } from '../db/bindings.repository.ts'
import { agentFacts, registeredFacts } from '../db/event-facts.ts'
import { findUserByUsername, insertUser, ROLES, type UserRow, updateUserPassword } from '../db/users.repository.ts'
import { generatedPassword } from '../domain/usernames.ts'
import type { IdentityTx } from './identity-tx.ts'
import { publishUserTokenState } from './revocation.ts'
import { registerScope } from './scope-registry.ts'

export const DEMO_SCOPE = { tenant_id: 'demo', workspace_id: 'main' } as const
const DEMO_SETTINGS = { public_registration: true, widget_enabled: true }

export interface SeedOptions {
  adminUsername?: string | undefined
  /** empty or absent: generated when the admin is created */
  adminPassword?: string | undefined
  agentUsername?: string | undefined
  agentPassword?: string | undefined
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

/**
 * The embedded default's demo tenant (docs/api.md §4): tenant `demo` with workspace `main` in the registry
 * (active, public registration and widget on), an admin (platform-wide) and an agent, each with an agents record
 * there, so both log in with tokens scoped to demo/main. Idempotent: existing records and accounts are kept; a
 * password given explicitly is made current. The descriptor's `seed`.
 */
export async function seedDemo(svc: IdentityService, opts: SeedOptions = {}): Promise<SeedResult> {
  // The registry's records first, open to registration and the widget; kept as they are once they exist.
  await svc.transaction(systemCaller(DEMO_SCOPE), (tx) =>
    registerScope(tx, DEMO_SCOPE, { tenantName: 'Demo', workspaceName: 'Main', settings: DEMO_SETTINGS }),
  )
  const admin = await ensureAccount(
    svc,
    opts.adminUsername || 'admin',
    opts.adminPassword,
    ROLES.admin,
    'Administrator',
  )
  const agent = await ensureAccount(svc, opts.agentUsername || 'agent', opts.agentPassword, ROLES.agent, 'Demo Agent')
  return { ...DEMO_SCOPE, admin, agent }
}

async function ensureAccount(
  svc: IdentityService,
  username: string,
  given: string | undefined,
  role: string,
  name: string,
): Promise<SeededAccount> {
  const password = given || generatedPassword()
  const hash = await svc.passwords.hash(password)
  return svc.transaction(systemCaller(DEMO_SCOPE), async (tx) => {
    const now = new Date().toISOString()
    let user = await findUserByUsername(tx.db, username)
    const created = !user
    if (!user) {
      user = await insertUser(tx.db, {
        id: newId(),
        username,
        email: `${username}@demo.example.com`,
        password_hash: hash,
        name,
        phone: '',
        role,
        now,
      })
      await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
      await publishUserTokenState(tx, user, 'registered')
    } else if (given && !(await svc.passwords.verify(user.password_hash, given))) {
      user = (await updateUserPassword(tx.db, user.id, hash, now)) ?? user
    }
    await ensureAgentRecord(tx, user, now)
    return { username, password: created || given ? password : null, created, user_id: user.id }
  })
}

async function ensureAgentRecord(tx: IdentityTx, user: UserRow, now: string) {
  if (await findAgentByUserInScope(tx.db, user.id, DEMO_SCOPE)) return
  const agent = await insertAgentBinding(tx.db, {
    id: newId(),
    user_id: user.id,
    ...DEMO_SCOPE,
    name: user.name,
    department: 'support',
    now,
  })
  await tx.emit(IdentityEvents.agentUpserted, agentFacts(agent))
}
