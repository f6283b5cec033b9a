import type { Principal } from '@switchboard/contracts'
import { SignJWT } from 'jose'
import t from 'tap'
import { TokenError } from '../src/errors.ts'
import {
  createInternalPrincipalCache,
  createInternalPrincipalVerifier,
  signInternalPrincipal,
  verifyInternalPrincipal,
} from '../src/internal.ts'

const principal: Principal = {
  user_id: 'u1',
  kind: 'agent',
  roles: ['agent'],
  permissions: ['tickets.read'],
  tenant_id: 'acme',
  workspace_id: 'support',
  session_id: 's1',
  jti: 'j1',
  token_tenant_id: 'acme',
  token_workspace_id: 'support',
}

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'accepted'
  } catch (err) {
    return err instanceof TokenError ? err.reason : String(err)
  }
}

t.test('round trip', async (t) => {
  const token = await signInternalPrincipal('internal', principal)
  t.same(await verifyInternalPrincipal('internal', token), principal)
  const verify = createInternalPrincipalVerifier('internal')
  t.same(await verify(token), principal)
  t.same(await verify(token), principal)
})

t.test('refusals', async (t) => {
  const token = await signInternalPrincipal('internal', principal)
  await t.rejects(verifyInternalPrincipal('other', token), TokenError)
  await t.rejects(verifyInternalPrincipal('internal', ''), TokenError)
  await t.rejects(verifyInternalPrincipal('internal', 'garbage'), TokenError)
  const noAud = await new SignJWT({ principal })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(new TextEncoder().encode('internal'))
  t.equal(
    await reasonOf(verifyInternalPrincipal('internal', noAud)),
    'TOKEN_AUDIENCE',
    'an access token is not internal',
  )
  const bad = await new SignJWT({ principal: { ...principal, kind: 'root' } })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('switchboard-gateway')
    .setAudience('switchboard-internal')
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(new TextEncoder().encode('internal'))
  t.equal(await reasonOf(verifyInternalPrincipal('internal', bad)), 'TOKEN_INVALID')
  const expired = await new SignJWT({ principal })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('switchboard-gateway')
    .setAudience('switchboard-internal')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
    .sign(new TextEncoder().encode('internal'))
  t.equal(await reasonOf(verifyInternalPrincipal('internal', expired)), 'TOKEN_EXPIRED')
})

t.test('cache skips re-verification and respects expiry', async (t) => {
  const cache = createInternalPrincipalCache(10)
  const token = await signInternalPrincipal('internal', principal, 60)
  await verifyInternalPrincipal('internal', token, cache)
  t.equal(cache.cache.size, 1)
  t.ok(cache.cache.getRemainingTTL(token) > 50_000)
  t.same(await verifyInternalPrincipal('internal', token, cache), principal)
})
