// The realtime bench's figures 2 and 3 (realtime.bench.ts): fan-out of one agent's messages to 1,000 consoles
// (through the gateways, then straight to the hubs), and the memory of idle sockets on one hub replica.
import { signInternalPrincipal } from '@switchboard/auth'
import { PRINCIPAL_HEADER, type Principal } from '@switchboard/contracts'
import { counter, fmt, percentile } from './lib.ts'
import { cpuText, MiB, rssOf } from './machine.ts'
import { type Cast, principalOf } from './realtime-cast.ts'
import { bareSocket, drain, listen, openMany, paced } from './realtime-load.ts'

export async function fanoutFigure(cast: Cast) {
  const { opts, open, closeAll, gateways, hubs, internalSecret, sessions, agentTokens, protocols, posters, book } = cast
  const { cpu, perReplica } = cast
  let n = cast.n
  // ---- 2. fan-out: 1,000 consoles of one agent ---------------------------------------------------------------
  // Every message of the agent's sessions goes to each of its consoles. Posted through the gateways as above; the
  // consoles through the gateways (what a client sees), then straight to the hub replicas (the hub's own figure).
  const fanAgent = 0
  const fanSessions = sessions.filter((s) => s.agent === fanAgent).slice(0, 10)
  const fanSeconds = Math.max(3, Math.round(opts.durationS / 2))
  const agentHeader = {
    [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, principalOf(agentTokens[fanAgent]!), 3600),
  }
  const fanout = async (path: 'gateway' | 'direct') => {
    const consoles = await openMany(opts.fanoutSockets, 50, async (i) => {
      const ws =
        path === 'gateway'
          ? await bareSocket(gateways[i % gateways.length]!, protocols(agentTokens[fanAgent]!))
          : await bareSocket(hubs[i % hubs.length]!, { headers: agentHeader, protocols: ['switchboard.v1'] })
      open.push(ws)
      listen(ws, book)
      return ws
    })
    const fanSpread = await perReplica()
    const fanSend = async (k: number) => {
      const s = fanSessions[k % fanSessions.length]!
      book.sent(k, performance.now())
      const status = await posters[fanAgent]![k % gateways.length]!.post(
        `/api/omni/sessions/${s.id}/messages`,
        `bench ${k}`,
      )
      if (status === 201) book.accepted(k, opts.fanoutSockets)
      return status === 201
    }
    // warm-up: a second of it, so the consoles follow the sessions and the paths are hot
    book.reset(performance.now())
    n += (await paced(opts.fanoutRate, 1, n, fanSend)).issued
    await drain(book)
    const fanStarted = performance.now()
    book.reset(fanStarted)
    cpu.start()
    const fanLoad = await paced(opts.fanoutRate, fanSeconds, n, fanSend)
    n += fanLoad.issued
    await drain(book)
    const fanCpu = cpu.stop()
    const fanTally = book.tally()
    const { lastArrival } = book.span()
    const buckets = book.buckets()
    const fanSamples = book.samples()
    const fanP50s = book.p50BySecond()
    const firstP50 = fanP50s[0] ?? 0
    const lastP50 = fanP50s[fanSeconds - 1] ?? Number.POSITIVE_INFINITY
    const figure = {
      path,
      sockets: consoles.sockets.length,
      per_hub_replica: fanSpread,
      opened_in_s: consoles.seconds,
      posts_per_s: fanLoad.accepted_per_s,
      posts: fanLoad.accepted,
      deliveries_owed: book.owed(),
      delivered: book.delivered,
      lost: fanTally.lost,
      duplicates: fanTally.duplicates,
      /** every delivery over the time from the first post to the last frame */
      deliveries_per_s: book.delivered / ((lastArrival - fanStarted) / 1000),
      deliveries_per_s_by_second: buckets,
      /** the slowest whole second of the posting window */
      steady_min_per_s: Math.min(...buckets.slice(0, fanSeconds)),
      p50_ms: percentile(fanSamples, 50),
      p99_ms: percentile(fanSamples, 99),
      p50_ms_by_second: fanP50s,
      /** nothing lost, and no backlog growing over the posting window (its last second no slower than its first) */
      kept_up: fanTally.lost === 0 && lastP50 <= Math.max(100, 2 * firstP50),
      post_p50_ms: fanLoad.post_p50_ms,
      post_p99_ms: fanLoad.post_p99_ms,
      cpu_percent: fanCpu,
    }
    console.log(
      `realtime 2: fan-out to ${figure.sockets} consoles of one agent ${path === 'gateway' ? 'through the gateways' : 'straight to the hubs'} ` +
        `(per hub replica ${fanSpread.join(' + ')}), ${fmt(figure.posts_per_s, 0)} posts/s for ${fanSeconds} s: ` +
        `${fmt(figure.deliveries_per_s, 0)} deliveries/s (target ≥ 20,000/s; slowest whole second ${figure.steady_min_per_s}; ` +
        `${figure.kept_up ? 'kept up' : 'did NOT keep up: a growing backlog'}), ${figure.delivered} of ${figure.deliveries_owed}, lost ${figure.lost}; ` +
        `POST start → frame p50 ${fmt(figure.p50_ms, 1)} ms, p99 ${fmt(figure.p99_ms, 1)} ms (POST p50 ${fmt(figure.post_p50_ms, 1)} ms); CPU ${cpuText(fanCpu)}`,
    )
    closeAll()
    return figure
  }
  const figure2 = { through_gateways: await fanout('gateway'), straight_to_hubs: await fanout('direct') }

  return figure2
}

export async function idleSocketsFigure(cast: Cast) {
  const { fleet, opts, open, closeAll, hubs, scope, internalSecret, perReplica } = cast
  // ---- 3. idle sockets on one hub replica ------------------------------------------------------------------
  const replica = fleet.children.find((c) => c.unit === 'realtime-voice' && c.url === hubs[0])!
  const pid = replica.process.pid!
  // the closed sockets of figures 1 and 2 gone from the replica's count before the baseline
  await new Promise((r) => setTimeout(r, 2000))
  const metrics = new URL('/metrics', hubs[0]).href
  const before = {
    rss: rssOf(pid),
    heap: await counter(metrics, 'nodejs_heap_size_used_bytes'),
    metric: await counter(metrics, 'process_resident_memory_bytes'),
    sockets: (await perReplica())[0]!,
  }
  // customers of the bench's scope (a principal each, as the gateway would sign it), connected and idle
  const principal = (i: number): Principal => ({
    user_id: `idle-${i}`,
    kind: 'end_user',
    roles: ['customer'],
    permissions: [],
    ...scope,
    session_id: '',
    jti: '',
    token_tenant_id: scope.tenant_id,
    token_workspace_id: scope.workspace_id,
  })
  const idle = await openMany(opts.idleSockets, 100, async (i) => {
    const header = { [PRINCIPAL_HEADER]: await signInternalPrincipal(internalSecret, principal(i), 3600) }
    const ws = await bareSocket(hubs[0]!, { headers: header, protocols: ['switchboard.v1'] })
    open.push(ws)
    return ws
  })
  await new Promise((r) => setTimeout(r, 3000))
  const after = {
    rss: rssOf(pid),
    heap: await counter(metrics, 'nodejs_heap_size_used_bytes'),
    metric: await counter(metrics, 'process_resident_memory_bytes'),
    sockets: (await perReplica())[0]!,
  }
  const figure3 = {
    path: 'straight to hub replica 1 (the gateway is not in the path)',
    sockets: after.sockets - before.sockets,
    opened_in_s: idle.seconds,
    rss_mib: after.rss / MiB,
    rss_before_mib: before.rss / MiB,
    metric_rss_mib: after.metric / MiB,
    per_socket_kib: (after.rss - before.rss) / 1024 / Math.max(1, after.sockets - before.sockets),
    heap_used_mib: after.heap / MiB,
    heap_used_before_mib: before.heap / MiB,
  }
  console.log(
    `realtime 3: ${figure3.sockets} idle customer sockets on hub replica 1 (straight to it, opened in ${fmt(idle.seconds, 1)} s): ` +
      `RSS ${fmt(figure3.rss_mib, 0)} MiB (target ≤ 500 MiB; ${fmt(figure3.rss_before_mib, 0)} MiB before, ` +
      `${fmt(figure3.per_socket_kib, 1)} KiB per socket; process_resident_memory_bytes ${fmt(figure3.metric_rss_mib, 0)} MiB; ` +
      `JS heap used ${fmt(figure3.heap_used_mib, 0)} MiB, ${fmt(figure3.heap_used_before_mib, 0)} MiB before)`,
  )
  closeAll()
  return figure3
}
