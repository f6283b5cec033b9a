// What the machine does during a bench: a process's resident memory and CPU time from /proc, per unit of a fleet,
// the engines, the kernel and everything else — so a disturbed run shows as one (realtime.bench.ts).
import { readdirSync, readFileSync } from 'node:fs'
import type { Fleet } from '@switchboard/cli'

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN)
  return kib * 1024
}

export const MiB = 1024 * 1024
export const TICKS_PER_S = 100

/** CPU seconds (user + system) of a process so far, and its command name; undefined once it is gone. */
export function statOf(pid: number | string): { comm: string; cpu: number } | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // fields after the command (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S,
  }
}

export const ENGINES = /^(postgres|nats-server|redis-server)$/
export const KERNEL = /^(ksoftirqd|kworker|kswapd)/

/**
 * CPU used from `start()` to `stop()`, in % of one core (this machine has two): per unit of the fleet (its replicas
 * summed), this process, the engines (PostgreSQL, NATS, Redis: others' work on them included), the kernel's
 * threads, every other process (what else ran: the figures are only clean when this is near 0), and the machine.
 */
export function cpuMeter(fleet: Fleet) {
  const read = () => {
    const units: Record<string, number> = {}
    const ours = new Set<number>([process.pid])
    for (const c of fleet.children) {
      if (c.process.pid === undefined) continue
      ours.add(c.process.pid)
      units[c.unit] = (units[c.unit] ?? 0) + (statOf(c.process.pid)?.cpu ?? 0)
    }
    const own = process.cpuUsage()
    units.bench = (own.user + own.system) / 1e6
    const pids = new Map<number, { comm: string; cpu: number }>()
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || ours.has(Number(entry))) continue
      const st = statOf(entry)
      if (st) pids.set(Number(entry), st)
    }
    // every core's busy ticks
    const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    const machine = (all.reduce((a, b) => a + b, 0) - all[3]! - all[4]!) / TICKS_PER_S
    return { units, pids, machine }
  }
  let from = read()
  let at = 0
  return {
    start() {
      from = read()
      at = performance.now()
    },
    stop(): Record<string, number> {
      const to = read()
      const seconds = (performance.now() - at) / 1000
      const pct = (s: number) => Math.round((100 * s) / seconds)
      const out: Record<string, number> = {}
      for (const [unit, s] of Object.entries(to.units)) out[unit] = pct(s - (from.units[unit] ?? 0))
      const groups = { engines: 0, kernel: 0, others: 0 }
      // a process started meanwhile counts from 0; one that ended meanwhile is missed (the machine's total has it)
      for (const [pid, st] of to.pids) {
        const used = st.cpu - (from.pids.get(pid)?.cpu ?? 0)
        groups[ENGINES.test(st.comm) ? 'engines' : KERNEL.test(st.comm) ? 'kernel' : 'others'] += used
      }
      out.engines = pct(groups.engines)
      out.kernel = pct(groups.kernel)
      out.others = pct(groups.others)
      out.machine = pct(to.machine - from.machine)
      return out
    },
  }
}
export const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([unit, p]) => `${unit} ${p}%`)
    .join(', ')

/** The machine's busy share (% of one core) over `ms`: whatever else runs here perturbs the figures. */
export async function machineBusy(ms: number) {
  const busy = () => {
    const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number)
    return (all.reduce((a, b) => a + b, 0) - all[3]! - all[4]!) / TICKS_PER_S
  }
  const from = busy()
  await new Promise((r) => setTimeout(r, ms))
  return Math.round((100 * (busy() - from)) / (ms / 1000))
}
