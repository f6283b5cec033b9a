import pino from 'pino'

/** A logger that says nothing, for apps and buses built in tests. */
export const silentLogger = () => pino({ level: 'silent' })
