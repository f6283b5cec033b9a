import { cpus } from 'node:os'
import { dropNamespace, type Fleet, startFleet } from '@switchboard/cli'
import type { Logger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import { machineBusy } from './machine.ts'
import { castOf, type RealtimeOptions } from './realtime-cast.ts'
import { fanoutFigure, idleSocketsFigure } from './realtime-fanout.ts'
import type { Socket } from './realtime-load.ts'
import { postToFrame } from './realtime-post-frame.ts'

export type { RealtimeOptions }

export async function benchRealtime(env: NodeJS.ProcessEnv, logger: Logger, opts: RealtimeOptions) {
  const namespace = uniqueId('benchrt')
  const busyBefore = await machineBusy(2000)
  console.log(
    `realtime: machine busy before the fleet starts: ${busyBefore}% of one core (2 s; ${cpus().length} cores)`,
  )
  const fleet = await startFleet({
    replicas: 2,
    gatewayReplicas: 2,
    port: 0,
    servicePort: 0,
    namespace,
    services: ['identity', 'conversations', 'realtime-voice'],
    env: {
      ...env,
      // One agent's 1,000 consoles, and one customer's ten sessions on ten sockets: past the per-principal limits
      // of a real deployment (20 per hub replica, 50 per gateway replica), raised here as the rate limits are.
      HUB_MAX_SOCKETS_PER_PRINCIPAL: '20000',
      WS_MAX_CONNECTIONS_PER_CLIENT: '20000',
      // a CPU profile of every unit of this fleet, written when it stops
      ...(process.env.BENCH_REALTIME_CPU_PROF_DIR
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_REALTIME_CPU_PROF_DIR}` }
        : {}),
    },
    logger,
    output: (line) => {
      if (/"level":(50|60)/.test(line)) process.stderr.write(`${line}\n`)
    },
  })
  const open: Socket[] = []
  const closeAll = () => {
    for (const ws of open.splice(0)) ws.terminate()
  }
  try {
    return { machine_busy_before_percent: busyBefore, ...(await measure(fleet, env, opts, open, closeAll)) }
  } finally {
    closeAll()
    await fleet.close()
    await dropNamespace(namespace, engineUrls()).catch((err) => console.error('namespace cleanup failed', err))
  }
}
async function measure(
  fleet: Fleet,
  env: NodeJS.ProcessEnv,
  opts: RealtimeOptions,
  open: Socket[],
  closeAll: () => void,
) {
  const cast = await castOf(fleet, env, opts, open, closeAll)
  try {
    const figure1 = await postToFrame(cast)
    const figure2 = await fanoutFigure(cast)
    const figure3 = await idleSocketsFigure(cast)
    return { figure1, figure2, figure3 }
  } finally {
    for (const row of cast.posters) for (const p of row) p.close()
  }
}
