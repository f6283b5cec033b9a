import closeWithGrace from 'close-with-grace'
import { createRootLogger, type Logger } from '../logger.ts'
import { startTracing, tracingConfigFromEnv } from '../tracing.ts'

/** What a unit sends its runner over the IPC channel once it listens. */
export const LISTENING_MESSAGE = 'switchboard:listening'

/** Anything a runner can start: a service descriptor, or the gateway's module. */
export interface Runnable<C extends { host: string; port: number; log_level: string }> {
  loadConfig(env: NodeJS.ProcessEnv): C
  build(config: C, deps: { logger: Logger }): Promise<RunnableApp>
}

interface RunnableApp {
  listen(opts: { host: string; port: number }): Promise<string>
  close(): Promise<unknown>
  log: { error(obj: unknown, msg: string): void }
}

/**
 * Every unit's `main.ts`, handed the environment (`process.env` is read there, nowhere below): config from it (a bad
 * value stops it, listing every problem), one root logger, tracing (when `monitoring.tracing` is on), build, close
 * with grace on SIGINT/SIGTERM or a crash, then listen.
 */
export async function runService<C extends { host: string; port: number; log_level: string }>(
  unit: Runnable<C>,
  env: NodeJS.ProcessEnv,
) {
  const config = unit.loadConfig(env)
  const logger = createRootLogger({ level: config.log_level })
  // before the build: the unit's hooks, database, cache and bus are traced only if tracing is on as they are made
  const unitName = (config as { service?: string }).service ?? 'gateway'
  const tracing = await startTracing(tracingConfigFromEnv(env, unitName))
  const app = await unit.build(config, { logger })
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'closing after error')
    await app.close()
    await tracing.shutdown()
  })
  await app.listen({ host: config.host, port: config.port })
  // A runner that spawned this unit with an IPC channel (the fleet) learns that *this* process holds the port: a
  // port it picked as free may have been taken by another process meanwhile, which would answer its probes.
  process.send?.({ type: LISTENING_MESSAGE, port: config.port })
  return app
}
