import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig } from '@switchboard/platform'

export const StatisticsOwnConfig = Type.Object({
  /** deliveries of one event to a projection before it is dead-lettered (STATISTICS_CONSUMER_MAX_DELIVER) */
  consumer_max_deliver: Type.Integer({ minimum: 1, maximum: 100, default: 8 }),
})

export const StatisticsConfig = Type.Composite([ServiceBaseConfig, StatisticsOwnConfig])
export type StatisticsConfig = Static<typeof StatisticsConfig>

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): StatisticsConfig {
  return parseConfig(StatisticsConfig, {
    ...baseConfigFromEnv(env, UNITS.statistics),
    consumer_max_deliver: env.STATISTICS_CONSUMER_MAX_DELIVER,
  })
}
