import { seedDemo } from './commands/seed.commands.ts'
import type { IdentityService } from './context.ts'

/** SEED_DEMO=true: seed once the app is ready and say how to log in (a generated password is shown once). */
export async function seedOnStartup(svc: IdentityService): Promise<void> {
  const seed = svc.config.seed
  if (!seed.enabled) return
  const r = await seedDemo(svc, {
    adminUsername: seed.admin_username,
    adminPassword: seed.admin_password,
    agentUsername: seed.agent_username,
    agentPassword: seed.agent_password,
  })
  svc.log.info(
    { tenant_id: r.tenant_id, workspace_id: r.workspace_id, admin: r.admin.username, agent: r.agent.username },
    'demo tenant seeded',
  )
  for (const [account, given] of [
    [r.admin, seed.admin_password],
    [r.agent, seed.agent_password],
  ] as const) {
    // In the message, not a field: the logger redacts *.password, and an unseen generated password is useless.
    if (account.created && !given)
      svc.log.warn(`demo account ${account.username}: generated password ${account.password}`)
  }
}
