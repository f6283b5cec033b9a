import { IdentityEvents } from '@switchboard/contracts'
import type { Outbox } from '@switchboard/platform'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import type { IdentityDatabase } from '../db/database.ts'
import type { Db, UserRow } from '../db/users.repository.ts'

/** Who and which scope an event is attributed to: the request, or (anonymous/system paths) a plain scope. */
export type EventSource = FastifyRequest | { tenant_id: string; workspace_id: string } | undefined

export interface EventContext {
  trx: Db
  outbox: Outbox
  from?: EventSource
}

/** Appends one event inside the caller's transaction; the subject is the event type. */
export async function emit<T>(ctx: EventContext, def: { type: string }, data: T): Promise<void> {
  await ctx.outbox.append(ctx.trx, def.type, ctx.outbox.envelope(def.type, data, ctx.from))
}

/**
 * Runs `fn` in one transaction and nudges the outbox relay after the commit, so every state change and its
 * events are written together and published promptly.
 */
export async function inTransaction<T>(
  app: FastifyInstance,
  fn: (trx: Transaction<IdentityDatabase>) => Promise<T>,
): Promise<T> {
  const result = await (app.db as Kysely<IdentityDatabase>).transaction().execute(fn)
  app.outbox.kick()
  return result
}

export function emitUserRegistered(ctx: EventContext, user: UserRow) {
  return emit(ctx, IdentityEvents.userRegistered, {
    user_id: user.id,
    username: user.username,
    role: user.role,
    name: user.name,
  })
}

export function emitUserRoleChanged(ctx: EventContext, user: UserRow) {
  return emit(ctx, IdentityEvents.userRoleChanged, { user_id: user.id, role: user.role })
}
