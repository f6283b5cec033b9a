// Helpers of the identity e2e files: error-body checks (a foreign record answered as a missing one), waiting for
// a revocation to reach the gateway, and JWTs built by hand (node:crypto), so a test can forge exactly the
// header, claims and signature it needs.
import { createHmac, randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import type { Reply } from './http.ts'

export const ERROR_KEYS = ['code', 'error', 'message', 'request_id']

/** The fleet's error body with the status and (when given) code; never a bare 500. */
export function isError(
  t: Test,
  reply: Reply,
  status: number,
  code?: string,
  what = `${status}${code ? ` ${code}` : ''}`,
) {
  t.equal(reply.status, status, `${what} (got ${reply.status} ${reply.text.slice(0, 200)})`)
  t.same(Object.keys(reply.body ?? {}).sort(), ERROR_KEYS, `${what}: error body {error, message, code, request_id}`)
  if (code) t.equal(reply.body?.code, code, `${what}: code`)
}

/** The parts of an error body that must not tell a foreign record from a missing one (request_id differs). */
export const sameAs = (r: Reply) => ({
  status: r.status,
  error: r.body?.error,
  code: r.body?.code,
  message: r.body?.message,
})

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** 404 for another tenant's record, with the same body as for a record that does not exist. */
export async function likeMissing(
  t: Test,
  label: string,
  foreign: () => Promise<Reply>,
  missing: () => Promise<Reply>,
) {
  const f = await foreign()
  const m = await missing()
  t.equal(f.status, 404, `${label}: 404 (got ${f.status} ${f.text.slice(0, 160)})`)
  t.same(Object.keys(f.body ?? {}).sort(), ERROR_KEYS, `${label}: error body`)
  // A message may echo the requested id (`audit record <id> not found`); the template must be the same.
  const shape = (r: Reply) => ({ ...sameAs(r), message: String(r.body?.message).replace(UUID, '<id>') })
  t.same(shape(f), shape(m), `${label}: same status, error, code and message as a missing id`)
}

/**
 * Revocations reach the gateway as identity's events (in the fleet over NATS between processes), so a request
 * sent the instant the revoke returns may still pass. Polls until 401 or the bound; returns how long it took.
 */
export const REVOCATION_BOUND_MS = 1000

export async function refusedWithin(call: () => Promise<Reply>, boundMs = REVOCATION_BOUND_MS) {
  const started = Date.now()
  for (;;) {
    const reply = await call()
    const ms = Date.now() - started
    if (reply.status === 401 || ms > boundMs) return { reply, ms }
    await new Promise((r) => setTimeout(r, 10))
  }
}

export type Json = Record<string, unknown>

const b64 = (v: Json | string) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')

export function decodeJwt(token: string): { header: Json; payload: Json; signature: string } {
  const [h = '', p = '', signature = ''] = token.split('.')
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')),
    signature,
  }
}

/** `header.payload.` with whatever signature the caller hands in (none by default). */
export function unsigned(header: Json, payload: Json, signature = ''): string {
  return `${b64(header)}.${b64(payload)}.${signature}`
}

export function hmac(alg: 'sha256' | 'sha384' | 'sha512', key: string | Buffer, input: string): string {
  return createHmac(alg, key).update(input).digest('base64url')
}

/** A correctly signed HS256 token over exactly these header and claims. */
export function signHs256(header: Json, payload: Json, secret: string): string {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${hmac('sha256', secret, input)}`
}

export interface Forge {
  /** claims to set (undefined deletes the claim) */
  claims?: Json
  /** header fields to set (undefined deletes the field) */
  header?: Json
  secret: string
}

function apply(base: Json, patch: Json = {}): Json {
  const out = { ...base }
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k]
    else out[k] = v
  }
  return out
}

/**
 * A real token's header and claims, changed as asked, signed with `secret` (the system's JWT_SECRET for the
 * "valid signature, bad claims" cases). A fresh jti unless the patch names one, so no cache entry is reused.
 */
export function forge(token: string, opts: Forge): string {
  const { header, payload } = decodeJwt(token)
  return signHs256(apply(header, opts.header), apply({ ...payload, jti: randomUUID() }, opts.claims), opts.secret)
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)
