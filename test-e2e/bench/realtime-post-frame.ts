// The realtime bench's figure 1 (realtime.bench.ts): message POST → frame at the session's sockets through the
// gateways, at the measured maximum's 50 % and 80 % (or the rates asked for), with the CPU of each phase.
import { fmt, percentile } from './lib.ts'
import { cpuText } from './machine.ts'
import { AGENTS, type Cast, RECEIVERS_PER_MESSAGE, SESSIONS } from './realtime-cast.ts'
import { bareSocket, drain, frameOf, listen, openMany, paced } from './realtime-load.ts'

export async function postToFrame(cast: Cast) {
  const { opts, open, closeAll, gateways, sessions, agentTokens, customerTokens, protocols, posters, book, cpu } = cast
  const { perReplica } = cast
  // ---- 1. POST → frame at the session's sockets --------------------------------------------------------------
  // each session's customer joins it on a socket of its own (alternating gateways); each agent has a console on
  // each gateway (which follows every session assigned to the agent)
  const joined = await openMany(SESSIONS, 20, async (i) => {
    const s = sessions[i]!
    const ws = await bareSocket(gateways[i % gateways.length]!, protocols(customerTokens[s.customer]!))
    open.push(ws)
    const answered = frameOf(ws, 'session')
    ws.send(JSON.stringify({ type: 'join', data: { session_id: s.id } }))
    await answered
    listen(ws, book)
    return ws
  })
  for (const token of agentTokens) {
    for (const g of gateways) {
      const ws = await bareSocket(g, protocols(token))
      open.push(ws)
      listen(ws, book)
    }
  }
  const spread = await perReplica()
  let n = 0
  const postOne = async (k: number) => {
    const s = sessions[k % SESSIONS]!
    const status = await posters[s.agent]![k % gateways.length]!.post(
      `/api/omni/sessions/${s.id}/messages`,
      `bench ${k}`,
    )
    if (status === 201) book.accepted(k, RECEIVERS_PER_MESSAGE)
    return status === 201
  }
  const send = (k: number) => {
    book.sent(k, performance.now())
    return postOne(k)
  }
  // warm-up: JIT, pools, token-state caches of both gateways
  book.reset(performance.now())
  const warm = await paced(100, Math.min(3, opts.durationS), n, send)
  n += warm.issued
  await drain(book)
  const phases: Array<
    Awaited<ReturnType<typeof paced>> & { p50_ms: number; p99_ms: number; lost: number } & Record<string, unknown>
  > = []
  let rates = opts.rates
  let maximum: number | undefined
  if (rates.length === 0) {
    book.reset(performance.now())
    const offered = opts.saturateRate ?? 1000
    const saturated = await paced(offered, opts.durationS, n, send)
    n += saturated.issued
    await drain(book)
    maximum = saturated.accepted_per_s
    rates = [0.5, 0.8].map((share) => Math.max(1, Math.round(share * maximum!)))
    console.log(
      `realtime 1: the maximum — offered ${offered}/s for ${opts.durationS} s (at most 256 in flight): accepted ` +
        `${fmt(maximum, 0)}/s, POST p99 ${fmt(saturated.post_p99_ms, 0)} ms (queueing); then 50 % and 80 % of it: ${rates.join(', ')}/s`,
    )
  }
  for (const rate of rates) {
    book.reset(performance.now())
    cpu.start()
    const load = await paced(rate, opts.durationS, n, send)
    n += load.issued
    await drain(book)
    const cpuUsed = cpu.stop()
    const samples = book.samples()
    const tally = book.tally()
    const phase = {
      ...load,
      deliveries_owed: book.owed(),
      delivered: book.delivered,
      lost: tally.lost,
      duplicates: tally.duplicates,
      p50_ms: percentile(samples, 50),
      p95_ms: percentile(samples, 95),
      p99_ms: percentile(samples, 99),
      max_ms: percentile(samples, 100),
      cpu_percent: cpuUsed,
    }
    phases.push(phase)
    console.log(
      `realtime 1: message POST → frame through the gateways, offered ${rate}/s for ${opts.durationS} s: ` +
        `accepted ${fmt(load.accepted_per_s, 0)}/s${load.kept_up ? '' : ' (the POST path did NOT keep up)'}, ` +
        `POST p50 ${fmt(load.post_p50_ms, 1)} ms p99 ${fmt(load.post_p99_ms, 1)} ms; ` +
        `${phase.delivered} of ${phase.deliveries_owed} deliveries, lost ${phase.lost}, duplicates ${phase.duplicates}; ` +
        `POST start → frame p50 ${fmt(phase.p50_ms, 1)} ms, p95 ${fmt(phase.p95_ms, 1)} ms, p99 ${fmt(phase.p99_ms, 1)} ms (target ≤ 100 ms), max ${fmt(phase.max_ms, 0)} ms; ` +
        `CPU ${cpuText(cpuUsed)}`,
    )
  }
  const keptUp = phases.filter((p) => p.kept_up)
  const best = keptUp.at(-1)
  const withinTarget = keptUp.filter((p) => p.p99_ms <= 100).at(-1)
  const figure1 = {
    sockets: { customers: joined.sockets.length, consoles: AGENTS * gateways.length, per_hub_replica: spread },
    sessions: SESSIONS,
    receivers_per_message: RECEIVERS_PER_MESSAGE,
    phases,
    ...(maximum !== undefined ? { maximum_accepted_per_s: maximum } : {}),
    highest_rate_kept_up: best?.offered_per_s ?? 0,
    highest_rate_within_100ms_p99: withinTarget?.offered_per_s ?? 0,
  }
  console.log(
    `realtime 1 (summary): ${joined.sockets.length} customer sockets + ${AGENTS * gateways.length} consoles over hub replicas ${spread.join(' + ')}; ` +
      `highest POST rate kept up: ${best ? `${best.offered_per_s}/s (frame p50 ${fmt(best.p50_ms, 1)} ms, p99 ${fmt(best.p99_ms, 1)} ms)` : 'none'}; ` +
      `highest with p99 ≤ 100 ms: ${withinTarget ? `${withinTarget.offered_per_s}/s (p99 ${fmt(withinTarget.p99_ms, 1)} ms)` : 'none'}; ` +
      `lost in all phases: ${phases.reduce((n, p) => n + p.lost, 0)}`,
  )
  closeAll()

  cast.n = n
  return figure1
}
