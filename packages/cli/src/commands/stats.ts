import { createRootLogger } from '@switchboard/platform'
import cliProgress from 'cli-progress'
import type { Command } from 'commander'
import { rebuildStats, type StatsRebuildReport } from '../stats-rebuild.ts'

interface RebuildFlags {
  projection?: string[]
  databaseUrl?: string
  schema?: string
  nats?: string
  prefix?: string
  json?: boolean
}

/** Flags over the environment, as the service itself reads it. */
export function rebuildEnv(o: RebuildFlags, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...(o.schema ? { DB_SCHEMA: o.schema } : {}),
    ...(o.nats ? { NATS_URL: o.nats } : {}),
    ...(o.prefix ? { NATS_PREFIX: o.prefix } : {}),
  }
}

function line(r: StatsRebuildReport): string {
  const byLive = r.events - r.applied - r.failed.length
  const failed = r.failed.length ? `, ${r.failed.length} FAILED` : ''
  return `${r.projection}: ${r.events} events replayed from ${r.stream}, ${r.applied} applied${byLive > 0 ? ` (${byLive} already applied by the running service or repeated)` : ''}${failed}`
}

/** `switchboard stats rebuild`: statistics' read models rebuilt from the streams (services/statistics/README.md). */
export function registerStats(program: Command) {
  const stats = program.command('stats').description("statistics' read models")

  stats
    .command('rebuild')
    .description(
      'empty projections (all, or --projection) and replay their JetStream streams through the projection code; safe while statistics runs',
    )
    .option('--projection <name...>', 'identity, tickets or conversations (repeatable; default all)')
    .option('--database-url <url>', "statistics' PostgreSQL (env DATABASE_URL)")
    .option('--schema <name>', "statistics' schema (env DB_SCHEMA, default statistics)")
    .option('--nats <url>', 'JetStream server (env NATS_URL, default nats://127.0.0.1:4222)')
    .option('--prefix <prefix>', 'stream/subject prefix of the fleet (env NATS_PREFIX)')
    .option('--json', 'print the report as JSON')
    .action(async (o: RebuildFlags) => {
      const env = rebuildEnv(o, process.env)
      const logger = createRootLogger({ level: env.LOG_LEVEL ?? 'warn', destination: process.stderr })
      let bar: InstanceType<typeof cliProgress.SingleBar> | undefined
      let total = 0
      const reports = await rebuildStats({
        projections: o.projection,
        env,
        logger,
        onStart: (projection, messages) => {
          bar?.stop()
          total = messages
          bar = new cliProgress.SingleBar(
            {
              format: `${projection.padEnd(26)} [{bar}] {value}/{total}`,
              stream: process.stderr,
              hideCursor: true,
              noTTYOutput: true,
            },
            cliProgress.Presets.shades_classic,
          )
          bar.start(messages, 0)
        },
        onProgress: (_projection, done) => {
          if (done > total) {
            total = done // events that arrived during the replay
            bar?.setTotal(total)
          }
          bar?.update(done)
        },
      })
      bar?.stop()
      process.stdout.write(o.json ? `${JSON.stringify(reports, null, 2)}\n` : `${reports.map(line).join('\n')}\n`)
      const failed = reports.flatMap((r) => r.failed.map((f) => ({ projection: r.projection, ...f })))
      if (failed.length) {
        for (const f of failed) process.stderr.write(`${f.projection} seq ${f.seq} ${f.type} ${f.id}: ${f.error}\n`)
        process.exitCode = 1
      }
    })
}
