import { randomBytes } from 'node:crypto'

/**
 * Real engines for tests: the URLs from the environment, defaulting to the loopback services of the
 * development machine and CI. Testcontainers is only a fallback where no URL is given and Docker exists;
 * on the machines this project targets the loopback services are always running, so it is not wired.
 */
export function engineUrls(env: NodeJS.ProcessEnv = process.env) {
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
  }
}

/** A short unique token for isolating one test file: schema names, Redis key prefixes, NATS prefixes. */
export function uniqueId(label = 't'): string {
  return `${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`.toLowerCase()
}
