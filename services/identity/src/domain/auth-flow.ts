import { randomUUID } from 'node:crypto'
import { isTokenError } from '@switchboard/auth'
import { IdentityEvents } from '@switchboard/contracts'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { insertCustomerBinding, listBindings } from '../db/bindings.repository.ts'
import { isDenied } from '../db/denylist.repository.ts'
import { findSession, insertSession, rotateSession } from '../db/sessions.repository.ts'
import {
  countUsers,
  findUserById,
  findUserByLogin,
  identityDb,
  insertUser,
  ROLES,
  takenIdentifiers,
  touchLastLogin,
  USER_STATUS,
} from '../db/users.repository.ts'
import { IdentityErrors } from '../errors.ts'
import { emit, emitUserRegistered, inTransaction } from '../events/publish.ts'
import type { LoginBody, RefreshBody, RegisterBody } from '../schemas/auth.schemas.ts'
import { publishSessionTokenState, publishUserTokenState, revokeSession } from './revocation.ts'
import { chooseBinding, type Selected } from './scope-selection.ts'
import { issueTokenPair, newJti, principalKindOverride, refreshRefusal, verifyRefreshToken } from './tokens.ts'

/** Where a request comes from, as the auth session records it. */
export interface ClientInfo {
  user_agent: string
  client_ip: string
  device_fingerprint: string
}

const ttls = (app: FastifyInstance) => app.identity.config.jwt

/**
 * Self-registration: the first user of an empty system is admin, everyone else a customer; with a scope the
 * customer record is created there too. One transaction: user, customer, session and their events.
 */
export async function register(app: FastifyInstance, body: RegisterBody, scope: Selected, client: ClientInfo) {
  if (scope.tenant_id && !scope.workspace_id) {
    throw new IdentityErrors.ScopeRequired('body.workspace_id: a customer record needs tenant_id and workspace_id')
  }
  const email = body.email.toLowerCase()
  const passwordHash = await app.identity.passwords.hash(body.password)
  const refreshJti = newJti()
  const { user, session } = await inTransaction(app, async (trx) => {
    // Serialises "am I the first user?" between concurrent registrations (SQLite writes are serial already).
    if (app.dbDialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('identity.register'))`.execute(trx)
    const taken = await takenIdentifiers(trx, body.username, email)
    if (taken.length > 0) throw new IdentityErrors.DuplicateUser(taken.join(' and '))
    const role = (await countUsers(trx)) === 0 ? ROLES.admin : ROLES.customer
    const now = new Date().toISOString()
    const user = await insertUser(trx, {
      id: randomUUID(),
      username: body.username,
      email,
      password_hash: passwordHash,
      name: body.name ?? body.username,
      phone: body.phone ?? '',
      role,
      now,
    })
    // The first user becomes a platform admin: unbound, so no customer record even with a scope.
    const bound = role === ROLES.customer && scope.tenant_id !== ''
    const from = bound ? scope : { tenant_id: '', workspace_id: '' }
    if (bound) {
      const customer = await insertCustomerBinding(trx, {
        id: randomUUID(),
        user_id: user.id,
        ...scope,
        name: user.name,
        email,
        phone: user.phone,
        source: 'web',
        now,
      })
      await emit({ trx, outbox: app.outbox, from }, IdentityEvents.customerUpserted, {
        customer_id: customer.id,
        user_id: user.id,
        name: customer.name,
        source: customer.source,
        tags: [],
      })
    }
    const session = await insertSession(trx, {
      id: randomUUID(),
      user_id: user.id,
      ...from,
      ...client,
      refresh_jti: refreshJti,
      now,
    })
    await touchLastLogin(trx, user.id, now)
    const ctx = { trx, outbox: app.outbox, from }
    await emitUserRegistered(ctx, user)
    await publishUserTokenState(ctx, user, 'registered')
    await publishSessionTokenState(ctx, session, 'login')
    return { user, session }
  })
  return issueTokenPair(app.identity.keys, ttls(app), { user, session, refreshJti })
}

/** Password login; unknown users cost the same argon2 work as known ones. */
export async function login(app: FastifyInstance, body: LoginBody, selected: Selected, client: ClientInfo) {
  const user = await findUserByLogin(identityDb(app), body.username.trim())
  if (!user) {
    await app.identity.passwords.dummyVerify(body.password)
    throw new IdentityErrors.InvalidCredentials()
  }
  if (!(await app.identity.passwords.verify(user.password_hash, body.password))) {
    throw new IdentityErrors.InvalidCredentials()
  }
  if (user.status !== USER_STATUS.active) throw new IdentityErrors.UserInactive()
  const choice = chooseBinding(await listBindings(identityDb(app), user.id), selected, user.role)
  if (!choice.ok) {
    if (choice.reason === 'several') {
      throw new IdentityErrors.ScopeRequired(
        'body.tenant_id: the user has several tenant/workspace bindings; name one with tenant_id and workspace_id',
      )
    }
    throw new IdentityErrors.ScopeNotBound(`${selected.tenant_id}/${selected.workspace_id || '*'}`)
  }
  const refreshJti = newJti()
  const session = await inTransaction(app, async (trx) => {
    const now = new Date().toISOString()
    const session = await insertSession(trx, {
      id: randomUUID(),
      user_id: user.id,
      ...choice.scope,
      ...client,
      refresh_jti: refreshJti,
      now,
    })
    await touchLastLogin(trx, user.id, now)
    await publishSessionTokenState({ trx, outbox: app.outbox, from: choice.scope }, session, 'login')
    return session
  })
  return issueTokenPair(app.identity.keys, ttls(app), {
    user,
    session,
    refreshJti,
    principalKind: principalKindOverride(user.role, choice.binding),
  })
}

/**
 * Refresh rotation. The database is the source of truth here: every acceptance rule is checked against the
 * rows, and the session's token_version rises by compare-and-set, so an old refresh token (or the loser of
 * two concurrent refreshes) is refused as re-use.
 */
export async function refresh(app: FastifyInstance, body: RefreshBody, client: ClientInfo) {
  let claims: Awaited<ReturnType<typeof verifyRefreshToken>>
  try {
    claims = await verifyRefreshToken(app.identity.keys, body.refresh_token)
  } catch (err) {
    if (isTokenError(err)) throw new IdentityErrors.InvalidRefreshToken(err.message)
    throw err
  }
  const refreshJti = newJti()
  const outcome = await inTransaction(app, async (trx) => {
    const [user, session, denied] = await Promise.all([
      findUserById(trx, claims.sub),
      findSession(trx, claims.session_id),
      isDenied(trx, claims.jti),
    ])
    const refusal = refreshRefusal(claims, user, session, denied)
    const from = { tenant_id: session?.tenant_id ?? '', workspace_id: session?.workspace_id ?? '' }
    if (refusal === 'reused' && session && app.identity.config.security.refresh_reuse_revokes_session) {
      // OWASP ASVS: a replayed refresh token means the family may be stolen; end the session.
      await revokeSession({ trx, outbox: app.outbox, from }, session.id, 'refresh_token_reuse')
    }
    if (refusal !== undefined || !user || !session) return { refusal: refusal ?? 'unknown session' } as const
    const rotated = await rotateSession(trx, session.id, {
      expectedVersion: claims.session_token_version,
      refreshJti,
      now: new Date().toISOString(),
      ...client,
      // A refresh comes from the same device: keep an X-Device-ID fingerprint unless a new one is sent.
      deviceFingerprint: client.device_fingerprint,
      userAgent: client.user_agent,
      clientIp: client.client_ip,
    })
    if (!rotated) return { refusal: 'reused' } as const
    await publishSessionTokenState({ trx, outbox: app.outbox, from }, rotated, 'refresh')
    const binding = (await listBindings(trx, user.id)).find(
      (b) => b.tenant_id === rotated.tenant_id && b.workspace_id === rotated.workspace_id,
    )
    return { user, session: rotated, principalKind: principalKindOverride(user.role, binding) }
  })
  if ('refusal' in outcome) {
    if (outcome.refusal === 'reused') throw new IdentityErrors.RefreshTokenReused()
    throw new IdentityErrors.InvalidRefreshToken(outcome.refusal)
  }
  return issueTokenPair(app.identity.keys, ttls(app), { ...outcome, refreshJti })
}
