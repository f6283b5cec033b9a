import { createPasswordHasher } from '@switchboard/identity/domain/passwords.ts'
import { client } from '../harness/http.ts'
import { fmt, load, percentile } from './lib.ts'

/** The production argon2id cost (identity's config defaults: OWASP's minimum, 19 MiB, 2 passes, 1 lane). */
const COSTS = { memory_cost_kib: 19_456, time_cost: 2, parallelism: 1 }

/** Raw argon2id verifications per second on this machine, 8 at a time: the ceiling for logins. */
async function rawVerifyRate(durationS: number): Promise<number> {
  const hasher = await createPasswordHasher(COSTS)
  const stored = await hasher.hash('bench-password-0123456789')
  const until = performance.now() + durationS * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < until) {
        await hasher.verify(stored, 'bench-password-0123456789')
        done++
      }
    }),
  )
  return done / durationS
}

/** Login throughput with the production argon2 cost, against the raw verify rate measured in the same run. */
export async function benchLogin(gateway: string, env: NodeJS.ProcessEnv, durationS: number) {
  const raw = await rawVerifyRate(Math.min(durationS, 5))
  const body = JSON.stringify({ username: env.AGENT_USERNAME, password: env.AGENT_PASSWORD })
  const result = await load('POST /api/v1/auth/login', new URL('/api/v1/auth/login', gateway).href, {
    durationS,
    connections: 8,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
  console.log(
    `login: ${fmt(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors} (8 connections); raw argon2id verify ${fmt(raw)} /s (19 MiB, t=2, p=1) → login at ${fmt((result.rps / raw) * 100)}% of the hash ceiling`,
  )
  return { ...result, raw_verify_per_s: raw, argon2: COSTS }
}

/**
 * Revocation propagation between two gateway replicas: log in (a fresh auth session), warm replica B,
 * revoke on replica A, then time from A's response to B's first 401. Trials run one after the other.
 */
export async function benchRevocation(
  gatewayA: string,
  gatewayB: string,
  adminToken: string,
  env: NodeJS.ProcessEnv,
  trials = 200,
) {
  const a = client(gatewayA)
  const b = client(gatewayB)
  const samples: number[] = []
  let failures = 0
  for (let i = 0; i < trials; i++) {
    const login = await a.post('/api/v1/auth/login', { username: env.AGENT_USERNAME, password: env.AGENT_PASSWORD })
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`)
    const { token, user } = login.body as { token: string; user: { id: string } }
    const warm = await b.get('/api/v1/auth/me', { token })
    if (warm.status !== 200) throw new Error(`replica B refused a fresh token: ${warm.status} ${warm.text}`)
    // alternate the revocation paths: session logout (session state) and user revoke (user state)
    const revoke =
      i % 2 === 0
        ? await a.post('/api/v1/auth/sessions/logout-current', {}, { token })
        : await a.post(`/api/security/users/${user.id}/revoke-tokens`, {}, { token: adminToken })
    if (revoke.status !== 200) throw new Error(`revoke failed: ${revoke.status} ${revoke.text}`)
    const t0 = performance.now()
    let seen = false
    while (performance.now() - t0 < 2000) {
      const res = await b.get('/api/v1/auth/me', { token })
      if (res.status === 401) {
        seen = true
        break
      }
    }
    if (seen) samples.push(performance.now() - t0)
    else failures++
  }
  const summary = {
    trials,
    failures,
    p50_ms: percentile(samples, 50),
    p99_ms: percentile(samples, 99),
    max_ms: Math.max(...samples),
  }
  console.log(
    `revocation A → first 401 on B over ${trials} trials: p50 ${fmt(summary.p50_ms)} ms, p99 ${fmt(summary.p99_ms)} ms, max ${fmt(summary.max_ms)} ms, not propagated within 2 s: ${failures} (target p99 ≤ 100 ms)`,
  )
  return summary
}
