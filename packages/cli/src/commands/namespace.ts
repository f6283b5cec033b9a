import type { Command } from 'commander'
import { dropNamespace } from '../namespace.ts'

export function registerNamespace(program: Command) {
  const ns = program.command('namespace').description('isolated fleets on shared engines (`fleet --namespace NS`)')
  ns.command('drop <namespace>')
    .description(
      'drop PostgreSQL schemas NS_*, Redis keys NS:* and JetStream streams NS_* (DATABASE_URL, REDIS_URL, NATS_URL)',
    )
    .action(async (namespace: string) => {
      const dropped = await dropNamespace(namespace, {
        databaseUrl: process.env.DATABASE_URL,
        redisUrl: process.env.REDIS_URL,
        natsUrl: process.env.NATS_URL,
      })
      process.stdout.write(
        `dropped ${dropped.schemas.length} schema(s), ${dropped.redisKeys} Redis key(s), ${dropped.streams.length} stream(s)\n`,
      )
    })
}
