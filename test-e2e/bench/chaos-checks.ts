// The chaos bench's checks after the load: every accepted write stored and audited once, every hub client's
// messages once each (test-e2e/bench/README.md "chaos").
import { setTimeout as sleep } from 'node:timers/promises'
import { type conversationsKit, must } from '../harness/conversations-kit.ts'
import type { Follower } from './chaos-load.ts'
import { fmt, percentile } from './lib.ts'

/**
 * Accepted writes (ok) stored exactly once, the others at most once: `found` counts what was read back by key.
 * A write that failed in flight may have been stored (its answer was lost): counted apart, not an error.
 */
export function exactlyOnce(
  writes: Array<{ key: string; ok: boolean; kind?: string }>,
  found: ReadonlyMap<string, number>,
) {
  let accepted = 0
  let lost = 0
  let doubled = 0
  let failedStored = 0
  let failedDoubled = 0
  const examples: string[] = []
  for (const w of writes) {
    const count = found.get(w.key) ?? 0
    if (w.ok) {
      accepted++
      if (count === 0) lost++
      if (count > 1) doubled++
      if (count !== 1 && examples.length < 5) examples.push(`${w.kind ? `${w.kind} ` : ''}${w.key}: ${count}`)
    } else {
      if (count === 1) failedStored++
      if (count > 1) {
        failedDoubled++
        if (examples.length < 5) examples.push(`${w.kind ? `${w.kind} ` : ''}${w.key} (failed): ${count}`)
      }
    }
  }
  return {
    written: writes.length,
    accepted,
    lost,
    doubled: doubled + failedDoubled,
    failed_but_stored: failedStored,
    ok: lost === 0 && doubled + failedDoubled === 0,
    examples,
  }
}

export async function storedTickets(api: Api, svc: object, tag: string) {
  const out = new Map<string, number>()
  for (let page = 1; ; page++) {
    const r = must(
      await api.get(`/api/tickets?search=${encodeURIComponent(`chaos-${tag} t`)}&page_size=100&page=${page}`, svc),
      200,
      'tickets list',
    )
    for (const t of r.data as Array<{ title: string }>) out.set(t.title, (out.get(t.title) ?? 0) + 1)
    if (page >= r.pages) return out
  }
}

export type Api = Awaited<ReturnType<typeof conversationsKit>>['api']

/**
 * Every message of a session, oldest first: the opener, then the pages after it (without a cursor the list is the
 * latest page only).
 */
export async function sessionMessages(api: Api, svc: object, session: string, opener: string) {
  const out: Array<{ id: string; seq: number; content: string; visibility: string }> = [
    { id: opener, seq: 1, content: '', visibility: 'public' },
  ]
  let after = opener
  for (;;) {
    const r = must(
      await api.get(`/api/omni/sessions/${session}/messages?limit=200&after=${after}`, svc),
      200,
      'messages',
    )
    out.push(...r.items)
    if (r.items.length < 200) return out
    after = r.items.at(-1).id
  }
}

export async function configHistory(api: Api, svc: object) {
  const out = new Map<string, number>()
  for (let page = 1; ; page++) {
    const r = must(
      await api.get(`/api/security/config/workspace/history?page_size=200&page=${page}`, svc),
      200,
      'config history',
    )
    for (const h of r.data as Array<{ audit: { change_ref: string; action: string } }>)
      out.set(h.audit.change_ref, (out.get(h.audit.change_ref) ?? 0) + 1)
    if (page >= r.pages) return out
  }
}

export async function auditByRequest(api: Api, svc: object) {
  const out = new Map<string, number>()
  for (let page = 1; ; page++) {
    const r = must(await api.get(`/api/audit/logs?page_size=200&page=${page}`, svc), 200, 'audit logs')
    for (const a of r.data as Array<{ request_id: string }>) out.set(a.request_id, (out.get(a.request_id) ?? 0) + 1)
    if (page >= r.pages) return out
  }
}

/**
 * Every hub client, every session it follows: the seqs it received are the session's messages after the first (all
 * of them for a console, the public ones for a customer), each once, in order.
 */
export function socketCheck(followers: Follower[], messages: Map<string, Array<{ seq: number; visibility: string }>>) {
  let lost = 0
  /** lost, and below a seq the client had already seen when it rejoined: overtaken by a later message */
  let lostOvertaken = 0
  /** the same seq twice on one socket: the hub's window let it through */
  let doubledOnOneSocket = 0
  /** the same seq on the socket before a rejoin and on the one after: the resume sent it again */
  let doubledByResume = 0
  let outOfOrder = 0
  const lateness: number[] = []
  let delivered = 0
  let reconnects = 0
  const examples: string[] = []
  for (const f of followers) {
    reconnects += f.reconnects.length
    for (const [session, got] of f.seqs) {
      const on = f.sockets.get(session)!
      const at = f.times.get(session)!
      const resumes = f.resumedAfter.get(session)!
      const want = (messages.get(session) ?? []).map((m) => m.seq).filter((s) => s > 1)
      const seen = new Map<number, number[]>()
      const when = new Map<number, string[]>()
      for (const [i, s] of got.entries()) {
        seen.set(s, [...(seen.get(s) ?? []), on[i]!])
        when.set(s, [...(when.get(s) ?? []), fmt(at[i]! / 1000, 2)])
      }
      delivered += got.length
      for (const s of want) {
        const where = seen.get(s) ?? []
        if (where.length === 0) {
          lost++
          if (resumes.some((r) => r > s)) lostOvertaken++
        }
        for (let i = 1; i < where.length; i++) {
          if (where.indexOf(where[i]!) < i) doubledOnOneSocket++
          else doubledByResume++
        }
        if (where.length !== 1 && examples.length < 8)
          examples.push(
            `${f.name} ${session} seq ${s}: ${where.length ? `on sockets ${where.join(',')} at ${when.get(s)!.join(', ')} s` : 'never'} (socket closed at ${f.reconnects.map((r) => `${fmt(r.closed_at / 1000, 2)} s (${r.code})`).join(', ')}, rejoined after seq ${resumes.join(', ')}; the next seq came at ${when.get(s + 1)?.join(', ') ?? '—'} s)`,
          )
      }
      // a frame that came after a higher seq: how long after the first higher one it came
      let highest = -1
      let highestAt = 0
      for (let i = 0; i < got.length; i++) {
        if (got[i]! < highest) {
          outOfOrder++
          lateness.push(at[i]! - highestAt)
        } else if (got[i]! > highest) {
          highest = got[i]!
          highestAt = at[i]!
        }
      }
    }
  }
  const doubled = doubledOnOneSocket + doubledByResume
  return {
    clients: followers.length,
    reconnects,
    connected_at_the_end: followers.filter((f) => f.connected).length,
    delivered,
    lost,
    lost_overtaken_before_a_rejoin: lostOvertaken,
    doubled,
    doubled_on_one_socket: doubledOnOneSocket,
    doubled_by_resume: doubledByResume,
    out_of_order: outOfOrder,
    /** how long after a higher seq an out-of-order frame came (ms): median and worst */
    out_of_order_late_ms: {
      p50: lateness.length ? Math.round(percentile(lateness, 50)) : 0,
      max: Math.round(Math.max(0, ...lateness)),
    },
    /** error frames the clients got (a refused join or message), with when */
    error_frames: followers.reduce((n, f) => n + f.errors.length, 0),
    error_frame_examples: followers.flatMap((f) => f.errors.map((e) => `${f.name} ${e}`)).slice(0, 8),
    ok: lost === 0 && doubled === 0 && followers.every((f) => f.connected),
    examples,
    reconnects_by_client: Object.fromEntries(followers.map((f) => [f.name, f.reconnects.length])),
  }
}

/** Until no follower received a frame for 3 s (at most a minute). */
export async function quiet(followers: Follower[]) {
  const count = () => followers.reduce((n, f) => n + [...f.seqs.values()].reduce((a, s) => a + s.length, 0), 0)
  const deadline = performance.now() + 60_000
  let seen = count()
  let since = performance.now()
  while (performance.now() < deadline && performance.now() - since < 3000) {
    await sleep(200)
    if (count() !== seen) {
      seen = count()
      since = performance.now()
    }
  }
}
