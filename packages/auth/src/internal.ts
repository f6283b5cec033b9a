import { Value } from '@sinclair/typebox/value'
import type { Principal } from '@switchboard/contracts'
import { Principal as PrincipalSchema } from '@switchboard/contracts'
import { errors, jwtVerify, SignJWT } from 'jose'
import { LRUCache } from 'lru-cache'
import { TokenError, TokenErrorReason } from './errors.ts'

export const INTERNAL_AUDIENCE = 'switchboard-internal'
const INTERNAL_ISSUER = 'switchboard-gateway'
const encoder = new TextEncoder()

/**
 * The principal the gateway hands a service, as a short-lived HS256 token under INTERNAL_SECRET: a service
 * can't be fooled by a client-sent header because only holders of the internal secret can mint one.
 */
export async function signInternalPrincipal(secret: string, principal: Principal, ttlSeconds = 60): Promise<string> {
  if (!secret) throw new Error('INTERNAL_SECRET is empty')
  return new SignJWT({ principal })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(INTERNAL_ISSUER)
    .setAudience(INTERNAL_AUDIENCE)
    .setSubject(principal.user_id)
    .setIssuedAt()
    .setExpirationTime(`${Math.max(1, Math.floor(ttlSeconds))}s`)
    .sign(encoder.encode(secret))
}

export interface InternalPrincipalCache {
  cache: LRUCache<string, Principal>
}

/** A small LRU of already verified internal tokens, entries dropped at the token's own expiry. */
export function createInternalPrincipalCache(max = 1000): InternalPrincipalCache {
  return { cache: new LRUCache<string, Principal>({ max, ttlAutopurge: false }) }
}

async function verifyUncached(secret: string, token: string): Promise<{ principal: Principal; exp: number }> {
  if (token.length > 16 * 1024) throw new TokenError(TokenErrorReason.tooLarge, 'internal token too large')
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      audience: INTERNAL_AUDIENCE,
      issuer: INTERNAL_ISSUER,
      requiredClaims: ['exp', 'iat'],
      clockTolerance: 5,
    })
    if (!Value.Check(PrincipalSchema, payload.principal)) {
      throw new TokenError(TokenErrorReason.invalid, 'internal token carries no valid principal')
    }
    return { principal: payload.principal, exp: payload.exp as number }
  } catch (err) {
    if (err instanceof TokenError) throw err
    if (err instanceof errors.JWTExpired) throw new TokenError(TokenErrorReason.expired, 'internal token expired')
    if (err instanceof errors.JWTClaimValidationFailed && (err.claim === 'aud' || err.claim === 'iss')) {
      throw new TokenError(TokenErrorReason.audience, 'not an internal token', { cause: err })
    }
    throw new TokenError(TokenErrorReason.invalid, 'internal token refused', { cause: err })
  }
}

/** Verifies the gateway's principal header; with `cache`, a token already verified is not verified again. */
export async function verifyInternalPrincipal(
  secret: string,
  token: string,
  cache?: InternalPrincipalCache,
): Promise<Principal> {
  if (!token) throw new TokenError(TokenErrorReason.missing, 'no internal principal')
  const hit = cache?.cache.get(token)
  if (hit) return hit
  const { principal, exp } = await verifyUncached(secret, token)
  const ttl = exp * 1000 - Date.now()
  if (cache && ttl > 0) cache.cache.set(token, principal, { ttl })
  return principal
}

/** Convenience for services: one verifier per service instance, with its own cache. */
export function createInternalPrincipalVerifier(secret: string, max = 1000) {
  const cache = createInternalPrincipalCache(max)
  return (token: string) => verifyInternalPrincipal(secret, token, cache)
}
