import { randomUUID } from 'node:crypto'
import { decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose'
import { LRUCache } from 'lru-cache'
import { type Claims, type ClaimsInput, normaliseClaims, rawTokenUse, type TokenUse } from './claims.ts'
import { TokenError, TokenErrorReason } from './errors.ts'
import type { Keyring, SigningKey } from './keyring.ts'
import { CLOCK_SKEW_SECONDS } from './lifetimes.ts'

export const DEFAULT_MAX_TOKEN_BYTES = 8 * 1024
const MAX_KID_LENGTH = 64
/** Header parameters that point at key material; honouring any of them lets the caller pick the key. */
const FORBIDDEN_HEADERS = ['jwk', 'jku', 'x5u', 'x5c', 'x5t', 'x5t#S256', 'crit'] as const

const encoder = new TextEncoder()

export interface IssueOptions {
  ttlSeconds: number
  tokenUse: TokenUse
  /** seconds since the epoch; tests pin it */
  now?: number
}

export interface IssuedToken {
  token: string
  claims: Claims
}

/** Signs HS256 with the keyring's current key; `kid` names it so verification never has to guess. */
export async function issueToken(keys: Keyring, input: ClaimsInput, opts: IssueOptions): Promise<IssuedToken> {
  if (!(opts.ttlSeconds > 0)) throw new Error('ttlSeconds must be positive')
  const iat = opts.now ?? Math.floor(Date.now() / 1000)
  const claims: Claims = {
    ...input,
    sub: input.user_id,
    jti: input.jti ?? randomUUID(),
    iat,
    exp: iat + opts.ttlSeconds,
    token_use: opts.tokenUse,
  }
  const payload: Record<string, unknown> = { ...claims }
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k]
  const token = await new SignJWT(payload as JWTPayload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.current.kid })
    .sign(encoder.encode(keys.current.secret))
  return { token, claims }
}

export interface VerifyOptions {
  expectedUse: TokenUse
  maxTokenBytes?: number
  clockToleranceSeconds?: number
  /**
   * The longest `exp − iat` accepted (plus the clock tolerance), fixed or by the token's claims (a service token
   * may live longer than a user's). Unset: any lifetime (tools that only inspect a token).
   */
  maxLifetimeSeconds?: number | ((claims: Claims) => number)
  /** seconds since the epoch; tests pin it */
  now?: number
}

function candidateKeys(keys: Keyring, kid: unknown): SigningKey[] {
  if (kid === undefined) return [keys.current, ...keys.previous]
  // A kid is only ever a lookup key in this map: never a path, URL or query.
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH) {
    throw new TokenError(TokenErrorReason.unknownKey, 'unusable kid')
  }
  const key = [keys.current, ...keys.previous].find((k) => k.kid === kid)
  if (!key) throw new TokenError(TokenErrorReason.unknownKey, 'unknown kid')
  return [key]
}

/**
 * RFC 8725 §3.11: a `typ` other than JWT names another kind of token (`at+jwt`, `secevent+jwt`, …) that must not be
 * taken for ours. Media type names are case-insensitive and may omit `application/` (RFC 7515 §4.1.9).
 */
function isJwtType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false
  const t = typ.toLowerCase()
  return t === 'jwt' || t === 'application/jwt'
}

function readHeader(token: string): Record<string, unknown> {
  try {
    return decodeProtectedHeader(token) as Record<string, unknown>
  } catch (cause) {
    throw new TokenError(TokenErrorReason.malformed, 'malformed token header', { cause })
  }
}

function translate(err: unknown): TokenError {
  if (err instanceof TokenError) return err
  if (err instanceof errors.JWTExpired) return new TokenError(TokenErrorReason.expired, 'token expired', { cause: err })
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new TokenError(TokenErrorReason.notYetValid, 'token not yet valid', { cause: err })
    if (err.reason === 'missing') {
      return new TokenError(TokenErrorReason.missingClaim, `claim ${err.claim} is missing`, { cause: err })
    }
    return new TokenError(TokenErrorReason.invalid, `claim ${err.claim} is invalid`, { cause: err })
  }
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) {
    return new TokenError(TokenErrorReason.malformed, 'malformed token', { cause: err })
  }
  return new TokenError(TokenErrorReason.invalid, 'token signature or algorithm refused', { cause: err })
}

async function verifyWith(token: string, key: SigningKey, opts: VerifyOptions): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, encoder.encode(key.secret), {
    algorithms: ['HS256'],
    requiredClaims: ['exp', 'iat'],
    clockTolerance: opts.clockToleranceSeconds ?? CLOCK_SKEW_SECONDS,
    ...(opts.now === undefined ? {} : { currentDate: new Date(opts.now * 1000) }),
  })
  return payload
}

/** `exp − iat` within the limit for this token (jose has made sure both are numbers). */
function checkLifetime(claims: Claims, limit: VerifyOptions['maxLifetimeSeconds'], skew: number): void {
  if (limit === undefined) return
  const max = typeof limit === 'function' ? limit(claims) : limit
  const lifetime = claims.exp - claims.iat
  if (lifetime > max + skew) {
    throw new TokenError(
      TokenErrorReason.lifetimeExceeded,
      `token lifetime ${lifetime} s is above the ${max} s allowed`,
    )
  }
}

/**
 * Verifies an HS256 token against the local keyring only and returns its normalised claims.
 * Every refusal is a TokenError with a reason code; no header ever causes a fetch or a file read.
 */
export async function verifyToken(keys: Keyring, token: string, opts: VerifyOptions): Promise<Claims> {
  try {
    if (typeof token !== 'string' || token === '') throw new TokenError(TokenErrorReason.missing, 'no token')
    // Checked before any parsing so a huge header can't cost base64/JSON work.
    if (token.length > (opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES)) {
      throw new TokenError(TokenErrorReason.tooLarge, 'token too large')
    }
    const header = readHeader(token)
    if (header.alg !== 'HS256') throw new TokenError(TokenErrorReason.invalid, 'algorithm not allowed')
    if ('typ' in header && !isJwtType(header.typ)) throw new TokenError(TokenErrorReason.invalid, 'token type not JWT')
    for (const h of FORBIDDEN_HEADERS) {
      if (h in header) throw new TokenError(TokenErrorReason.forbiddenHeader, `header ${h} not allowed`)
    }
    let payload: JWTPayload | undefined
    let lastErr: unknown
    for (const key of candidateKeys(keys, header.kid)) {
      try {
        payload = await verifyWith(token, key, opts)
        break
      } catch (err) {
        lastErr = err
        // Only a bad signature is worth retrying with an older key; an expired token stays expired.
        if (!(err instanceof errors.JWSSignatureVerificationFailed)) break
      }
    }
    if (!payload) throw translate(lastErr)
    const now = opts.now ?? Math.floor(Date.now() / 1000)
    const skew = opts.clockToleranceSeconds ?? CLOCK_SKEW_SECONDS
    if (typeof payload.iat === 'number' && payload.iat > now + skew) {
      throw new TokenError(TokenErrorReason.notYetValid, 'token issued in the future')
    }
    const use = rawTokenUse(payload)
    if (use !== opts.expectedUse) {
      throw new TokenError(
        TokenErrorReason.wrongUse,
        `expected ${opts.expectedUse === 'access' ? 'an' : 'a'} ${opts.expectedUse} token`,
      )
    }
    const claims = normaliseClaims(payload)
    if (claims.jti === '') throw new TokenError(TokenErrorReason.missingClaim, 'claim jti is missing')
    checkLifetime(claims, opts.maxLifetimeSeconds, skew)
    return claims
  } catch (err) {
    throw translate(err)
  }
}

/**
 * A verifier for the hot path: a token that verified once is remembered until it expires, since the same
 * bytes always verify the same way; only the first request with a token pays for parsing and the HMAC.
 * Revocation is not cached here: callers still apply the token-state rules to every request.
 */
export function createTokenVerifier(keys: Keyring, opts: Omit<VerifyOptions, 'now'>, max = 10_000) {
  const accepted = new LRUCache<string, Claims>({ max })
  return async (token: string): Promise<Claims> => {
    const hit = accepted.get(token)
    if (hit) return hit
    const claims = await verifyToken(keys, token, opts)
    const ttl = claims.exp * 1000 - Date.now()
    if (ttl > 0) accepted.set(token, claims, { ttl })
    return claims
  }
}
