import pino, { type Logger } from 'pino'

export type { Logger }

/** One root logger per process; services take a `child({ service })`. Credentials never reach the log. */
export function createRootLogger(opts: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-switchboard-principal"]',
          'req.headers["x-api-key"]',
          '*.password',
          '*.refresh_token',
          '*.token',
        ],
        censor: '[REDACTED]',
      },
    },
    opts.destination,
  )
}
