import type { Db } from './users.repository.ts'
import { USER_STATUS } from './users.repository.ts'

/**
 * Active administrators other than `exceptUserId` who keep a reach alive: for `''` the platform's (admins whose
 * admin_tenant_id is ''), for a tenant its own administrators and the platform administrators bound in it by an
 * agent record (services/identity/README.md, "Operators").
 */
export async function otherActiveAdmins(db: Db, reach: string, exceptUserId: string): Promise<number> {
  let q = db
    .selectFrom('users')
    .where('role', '=', 'admin')
    .where('status', '=', USER_STATUS.active)
    .where('id', '!=', exceptUserId)
  q = reach
    ? q.where((eb) =>
        eb.or([
          eb('admin_tenant_id', '=', reach),
          eb.and([
            eb('admin_tenant_id', '=', ''),
            eb.exists(
              eb
                .selectFrom('agents')
                .select('agents.id')
                .whereRef('agents.user_id', '=', 'users.id')
                .where('agents.tenant_id', '=', reach),
            ),
          ]),
        ]),
      )
    : q.where('admin_tenant_id', '=', '')
  const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}
