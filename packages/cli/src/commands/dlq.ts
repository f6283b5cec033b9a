import type { DeadLetter } from '@switchboard/events'
import { createRootLogger } from '@switchboard/platform'
import cliProgress from 'cli-progress'
import type { Command } from 'commander'
import { type DeadLetterSource, openDeadLetters } from '../dead-letters.ts'

interface SourceFlags {
  nats?: string
  prefix?: string
  gateway?: string
  token?: string
  consumer?: string
}

function sourceOf(o: SourceFlags, env: NodeJS.ProcessEnv): DeadLetterSource {
  const gateway = o.gateway ?? env.SWITCHBOARD_GATEWAY
  if (gateway) {
    const token = o.token ?? env.SWITCHBOARD_TOKEN
    if (!token) throw new Error('--gateway needs --token (an admin or service access token)')
    return { kind: 'http', gateway, token }
  }
  return {
    kind: 'nats',
    url: o.nats ?? env.NATS_URL ?? 'nats://127.0.0.1:4222',
    prefix: o.prefix ?? env.NATS_PREFIX,
    logger: createRootLogger({ level: env.LOG_LEVEL ?? 'warn', destination: process.stderr }),
  }
}

function withSource(cmd: Command): Command {
  return cmd
    .option('--nats <url>', 'JetStream server (env NATS_URL, default nats://127.0.0.1:4222)')
    .option('--prefix <prefix>', 'stream/subject prefix of the fleet (env NATS_PREFIX)')
    .option('--gateway <url>', 'use the gateway ops surface instead (embedded mode; env SWITCHBOARD_GATEWAY)')
    .option('--token <token>', 'admin or service bearer token for --gateway (env SWITCHBOARD_TOKEN)')
    .option('--consumer <name>', 'only dead letters of this consumer')
}

function row(d: DeadLetter): string {
  return [
    String(d.seq).padStart(6),
    d.failed_at,
    d.consumer.padEnd(24),
    d.origin_subject.padEnd(36),
    `x${d.deliveries}`,
    d.error.slice(0, 120),
  ].join('  ')
}

export function registerDlq(program: Command) {
  const dlq = program.command('dlq').description('dead letters: list and replay to their original subject')

  withSource(dlq.command('list'))
    .option('--limit <n>', 'at most n', '100')
    .option('--json', 'print JSON')
    .action(async (o: SourceFlags & { limit: string; json?: boolean }) => {
      const client = await openDeadLetters(sourceOf(o, process.env))
      try {
        const items = await client.list({ consumer: o.consumer, limit: Number(o.limit) })
        if (o.json) {
          process.stdout.write(`${JSON.stringify({ count: items.length, items }, null, 2)}\n`)
          return
        }
        process.stdout.write(`${items.length} dead letter(s)\n`)
        for (const d of items) process.stdout.write(`${row(d)}\n`)
      } finally {
        await client.close()
      }
    })

  withSource(dlq.command('replay'))
    .option('--all', 'replay every dead letter (of --consumer when given)')
    .option('--seq <n...>', 'replay these dead-letter sequence numbers')
    .action(async (o: SourceFlags & { all?: boolean; seq?: string[] }) => {
      if (!o.all && !o.seq?.length) throw new Error('say what to replay: --all or --seq N [N...]')
      if (o.all && o.seq?.length) throw new Error('--all and --seq exclude each other')
      const seqs = o.seq?.map((s) => {
        const n = Number(s)
        if (!Number.isInteger(n) || n <= 0) throw new Error(`--seq ${s}: not a sequence number`)
        return n
      })
      const client = await openDeadLetters(sourceOf(o, process.env))
      const bar = new cliProgress.SingleBar(
        { format: 'replay [{bar}] {value}/{total}', stream: process.stderr, hideCursor: true, noTTYOutput: true },
        cliProgress.Presets.shades_classic,
      )
      let started = false
      try {
        const replayed = await client.replay({
          seqs,
          consumer: o.consumer,
          onProgress: (done, total) => {
            if (!started) {
              bar.start(total, done)
              started = true
            } else {
              bar.setTotal(total)
              bar.update(done)
            }
          },
        })
        if (started) bar.stop()
        process.stdout.write(`replayed ${replayed} dead letter(s)\n`)
      } finally {
        await client.close()
      }
    })
}
