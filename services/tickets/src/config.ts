import { type Static, Type } from '@sinclair/typebox'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig } from '@switchboard/platform'

export const TICKETS_DEFAULT_PORT = 8102

// No settings of its own yet (SLA and survey settings will join here).
export const TicketsConfig = Type.Composite([ServiceBaseConfig, Type.Object({})])
export type TicketsConfig = Static<typeof TicketsConfig>

/** Pure: the environment in, a checked config out (STYLE point 8). */
export function loadConfig(env: NodeJS.ProcessEnv): TicketsConfig {
  return parseConfig(TicketsConfig, baseConfigFromEnv(env, 'tickets', TICKETS_DEFAULT_PORT))
}
