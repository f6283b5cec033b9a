import { isTokenError } from '@switchboard/auth'
import { IdentityEvents } from '@switchboard/contracts'
import { type Caller, NO_SCOPE, newId } from '@switchboard/platform'
import type { IdentityService } from '../context.ts'
import { type Binding, insertCustomerBinding, listBindings } from '../db/bindings.repository.ts'
import { isDenied } from '../db/denylist.repository.ts'
import { customerFacts, registeredFacts } from '../db/event-facts.ts'
import { findSession, insertSession, rotateSession } from '../db/sessions.repository.ts'
import {
  countUsers,
  findUserById,
  findUserByLogin,
  insertUser,
  ROLES,
  takenIdentifiers,
  touchLastLogin,
  USER_STATUS,
  type UserRow,
  userView,
} from '../db/users.repository.ts'
import type { ClientInfo } from '../domain/fingerprint.ts'
import { chooseBinding, type Selected } from '../domain/scope-selection.ts'
import {
  issueTokenPair,
  newJti,
  principalKindOverride,
  refreshRefusal,
  SESSION_REVOKED,
  verifyRefreshToken,
} from '../domain/tokens.ts'
import { IdentityErrors } from '../errors.ts'
import { scopeChoices } from '../queries/scope-choices.queries.ts'
import type { LoginBody, RegisterBody } from '../schemas/auth.schemas.ts'
import { inEventScope } from './identity-tx.ts'
import { publishSessionTokenState, publishUserTokenState, revokeSession } from './revocation.ts'
import { admitScope, refusalError, scopeRefusal } from './scope-registry.ts'

/**
 * Self-registration: the first user of an empty system is admin, everyone else a customer; with a scope the
 * customer record is created there too. One transaction: user, customer, session and their events.
 */
export async function register(
  svc: IdentityService,
  caller: Caller,
  body: RegisterBody,
  scope: Selected,
  client: ClientInfo,
) {
  if (scope.tenant_id && !scope.workspace_id) {
    throw new IdentityErrors.ScopeRequired('body.workspace_id: a customer record needs tenant_id and workspace_id')
  }
  const email = body.email.toLowerCase()
  const passwordHash = await svc.passwords.hash(body.password)
  const refreshJti = newJti()
  const { user, session } = await svc.transaction(caller, async (outer) => {
    // Serialises "am I the first user?" between concurrent registrations.
    await outer.advisoryLock('identity.register')
    const taken = await takenIdentifiers(outer.db, body.username, email)
    if (taken.length > 0) throw new IdentityErrors.DuplicateUser(taken.join(' and '))
    const role = (await countUsers(outer.db)) === 0 ? ROLES.admin : ROLES.customer
    const now = new Date().toISOString()
    const user = await insertUser(outer.db, {
      id: newId(),
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
    // Only into a registered, active tenant and workspace that take public registrations (404 / 403).
    if (bound) await admitScope(outer.db, scope, 'register')
    const at = bound ? scope : NO_SCOPE
    const tx = inEventScope(outer, at)
    if (bound) {
      const customer = await insertCustomerBinding(tx.db, {
        id: newId(),
        user_id: user.id,
        ...scope,
        name: user.name,
        email,
        phone: user.phone,
        source: 'web',
        now,
      })
      await tx.emit(IdentityEvents.customerUpserted, customerFacts(customer))
    }
    const session = await insertSession(tx.db, {
      id: newId(),
      user_id: user.id,
      ...at,
      ...client,
      refresh_jti: refreshJti,
      now,
    })
    await touchLastLogin(tx.db, user.id, now)
    await tx.emit(IdentityEvents.userRegistered, registeredFacts(user))
    await publishUserTokenState(tx, user, 'registered')
    await publishSessionTokenState(tx, session, 'login')
    return { user, session }
  })
  return issueTokenPair(svc.keys, svc.config.jwt, { user, session, view: userView(user), refreshJti })
}

/**
 * The bindings a login may choose from. A named scope must be registered and active (404 / 403); without a name,
 * bindings in disabled scopes are passed over, and when every binding is in one the first one's refusal answers.
 * A platform admin's are all kept: with several it gets an unscoped token, which enters no scope.
 */
async function usableBindings(svc: IdentityService, user: UserRow, selected: Selected): Promise<Binding[]> {
  const bindings = await listBindings(svc.db, user.id)
  if (selected.tenant_id) {
    await admitScope(svc.db, selected, 'login')
    return bindings
  }
  if (user.role === ROLES.admin && !user.admin_tenant_id) return bindings
  const refusals = await Promise.all(bindings.map((b) => scopeRefusal(svc.db, b, 'login')))
  const usable = bindings.filter((_, i) => !refusals[i])
  const first = bindings[0]
  if (first && usable.length === 0 && refusals[0]) throw refusalError(refusals[0], first)
  return usable
}

/** Password login; unknown users cost the same argon2 work as known ones. */
export async function login(
  svc: IdentityService,
  caller: Caller,
  body: LoginBody,
  selected: Selected,
  client: ClientInfo,
) {
  const user = await findUserByLogin(svc.db, body.username.trim())
  if (!user) {
    await svc.passwords.dummyVerify(body.password)
    throw new IdentityErrors.InvalidCredentials()
  }
  if (!(await svc.passwords.verify(user.password_hash, body.password))) throw new IdentityErrors.InvalidCredentials()
  if (user.status !== USER_STATUS.active) throw new IdentityErrors.UserInactive()
  const usable = await usableBindings(svc, user, selected)
  const choice = chooseBinding(usable, selected, user.role, user.admin_tenant_id)
  if (!choice.ok) {
    if (choice.reason === 'several') {
      const err = new IdentityErrors.ScopeRequired(
        'body.tenant_id: the user has several tenant/workspace bindings; name one with tenant_id and workspace_id',
      )
      // The chooser's list (docs/api.md §2): only now, after the password matched.
      const named = usable.filter((b) => !selected.tenant_id || b.tenant_id === selected.tenant_id)
      throw Object.assign(err, { scopes: await scopeChoices(svc.db, named) })
    }
    throw new IdentityErrors.ScopeNotBound(`${selected.tenant_id}/${selected.workspace_id || '*'}`)
  }
  // The scope the token gets (a tenant administrator's whole tenant included) must be active.
  if (choice.scope.tenant_id) await admitScope(svc.db, choice.scope, 'login')
  const refreshJti = newJti()
  const session = await svc.transaction({ ...caller, scope: choice.scope }, async (tx) => {
    const now = new Date().toISOString()
    const session = await insertSession(tx.db, {
      id: newId(),
      user_id: user.id,
      ...choice.scope,
      ...client,
      refresh_jti: refreshJti,
      now,
    })
    await touchLastLogin(tx.db, user.id, now)
    await publishSessionTokenState(tx, session, 'login')
    return session
  })
  return issueTokenPair(svc.keys, svc.config.jwt, {
    user,
    session,
    view: userView(user),
    refreshJti,
    principalKind: principalKindOverride(user.role, choice.binding),
  })
}

/**
 * Refresh rotation. The database is the source of truth here: every acceptance rule is checked against the
 * rows, and the session's token_version rises by compare-and-set, so an old refresh token (or the loser of
 * two concurrent refreshes) is refused as re-use.
 */
export async function refresh(svc: IdentityService, caller: Caller, refreshToken: string, client: ClientInfo) {
  let claims: Awaited<ReturnType<typeof verifyRefreshToken>>
  try {
    claims = await verifyRefreshToken(svc.keys, refreshToken, svc.config.jwt.refresh_ttl_seconds)
  } catch (err) {
    if (isTokenError(err)) throw new IdentityErrors.InvalidRefreshToken(err.message)
    throw err
  }
  // A disabled tenant or workspace gets no new tokens (the gateway refuses the ones it has).
  if (claims.tenant_id) {
    await admitScope(svc.db, { tenant_id: claims.tenant_id, workspace_id: claims.workspace_id }, 'refresh')
  }
  const refreshJti = newJti()
  const outcome = await svc.transaction(caller, async (outer) => {
    const [user, session, denied] = await Promise.all([
      findUserById(outer.db, claims.sub),
      findSession(outer.db, claims.session_id),
      isDenied(outer.db, claims.jti),
    ])
    const refusal = refreshRefusal(claims, user, session, denied)
    const tx = inEventScope(outer, {
      tenant_id: session?.tenant_id ?? '',
      workspace_id: session?.workspace_id ?? '',
    })
    if (refusal === 'reused' && session && svc.config.security.refresh_reuse_revokes_session) {
      // OWASP ASVS: a replayed refresh token means the family may be stolen; end the session.
      await revokeSession(tx, session.id, 'refresh_token_reuse')
    }
    if (refusal !== undefined || !user || !session) return { refusal: refusal ?? 'unknown session' } as const
    const rotated = await rotateSession(tx.db, session.id, {
      expectedVersion: claims.session_token_version,
      refreshJti,
      now: new Date().toISOString(),
      // A refresh comes from the same device: keep an X-Device-ID fingerprint unless a new one is sent.
      deviceFingerprint: client.device_fingerprint,
      userAgent: client.user_agent,
      clientIp: client.client_ip,
    })
    if (!rotated) return { refusal: 'reused' } as const
    await publishSessionTokenState(tx, rotated, 'refresh')
    const binding = (await listBindings(tx.db, user.id)).find(
      (b) => b.tenant_id === rotated.tenant_id && b.workspace_id === rotated.workspace_id,
    )
    return { user, session: rotated, principalKind: principalKindOverride(user.role, binding) }
  })
  if ('refusal' in outcome) {
    if (outcome.refusal === 'reused') throw new IdentityErrors.RefreshTokenReused()
    if (outcome.refusal === SESSION_REVOKED) throw new IdentityErrors.SessionRevoked()
    throw new IdentityErrors.InvalidRefreshToken(outcome.refusal)
  }
  return issueTokenPair(svc.keys, svc.config.jwt, { ...outcome, view: userView(outcome.user), refreshJti })
}
