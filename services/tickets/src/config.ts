import { type Static, Type } from '@sinclair/typebox'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig } from '@switchboard/platform'

export const TICKETS_DEFAULT_PORT = 8102

export const TicketsConfig = Type.Composite([
  ServiceBaseConfig,
  Type.Object({
    /** longest `search` term accepted on the list (a LIKE over title and description) */
    search_max_length: Type.Integer({ minimum: 1, default: 200 }),
  }),
])
export type TicketsConfig = Static<typeof TicketsConfig>

/** Pure: the environment in, a checked config out (STYLE point 8). */
export function loadConfig(env: NodeJS.ProcessEnv): TicketsConfig {
  return parseConfig(TicketsConfig, {
    ...baseConfigFromEnv(env, 'tickets', TICKETS_DEFAULT_PORT),
    search_max_length: env.TICKETS_SEARCH_MAX_LENGTH,
  })
}
