import type { Cache } from '@switchboard/platform'
import type { BreakerState, Permit } from './port.ts'
import { CLOSED, type Limits, type StoredState } from './transitions.ts'

/** Where a breaker's state is kept: one Redis hash, or this process's memory (memory-store.ts). */
export interface BreakerStore {
  acquire(now: number): Promise<Permit>
  success(trial: boolean): Promise<void>
  failure(trial: boolean, now: number): Promise<void>
  read(): Promise<StoredState>
  reset(): Promise<void>
}

// The steps of transitions.ts in Lua, one script per transition, so that replicas racing on one breaker agree
// (50 concurrent acquires while half-open let exactly `half_open_max_requests` through). An absent hash is closed;
// closing deletes it. Times are the callers' clocks (ARGV), kept as the strings they came as.
const ACQUIRE = `
local h = redis.call('HMGET', KEYS[1], 'state', 'opened_at', 'trials', 'half_opened_at')
local state = h[1] or 'closed'
if state == 'closed' then return {1, 0, 'closed'} end
local now, reset = tonumber(ARGV[1]), tonumber(ARGV[2])
if state == 'open' then
  if now - tonumber(h[2] or '0') < reset then return {0, 0, 'open'} end
  redis.call('HSET', KEYS[1], 'state', 'half_open', 'trials', 1, 'half_opened_at', ARGV[1])
  return {1, 1, 'half_open'}
end
if tonumber(h[3] or '0') < tonumber(ARGV[3]) then
  redis.call('HINCRBY', KEYS[1], 'trials', 1)
  return {1, 1, 'half_open'}
end
if now - tonumber(h[4] or '0') >= reset then
  redis.call('HSET', KEYS[1], 'trials', 1, 'half_opened_at', ARGV[1])
  return {1, 1, 'half_open'}
end
return {0, 0, 'half_open'}`

const SUCCESS = `
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
if state == 'closed' or (state == 'half_open' and ARGV[1] == '1') then redis.call('DEL', KEYS[1]) end
return 1`

const FAILURE = `
local h = redis.call('HMGET', KEYS[1], 'state', 'failures')
local state = h[1] or 'closed'
local failures = tonumber(h[2] or '0') + 1
if state == 'closed' and failures < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'state', 'closed', 'failures', failures)
elseif state == 'closed' or (state == 'half_open' and ARGV[1] == '1') then
  redis.call('HSET', KEYS[1], 'state', 'open', 'failures', failures, 'opened_at', ARGV[2], 'trials', 0)
  redis.call('HDEL', KEYS[1], 'half_opened_at')
end
return 1`

const COMMANDS = { acquire: 'aiBreakerAcquire', success: 'aiBreakerSuccess', failure: 'aiBreakerFailure' } as const
type Redis = NonNullable<Cache['redis']>
type Script = (key: string, ...args: string[]) => Promise<unknown>

/** The script as a command of this client (defineCommand: EVALSHA, EVAL when the server does not know it yet). */
function script(redis: Redis, name: string, lua: string): Script {
  if (!(name in redis)) redis.defineCommand(name, { lua, numberOfKeys: 1 })
  const run = (redis as unknown as Record<string, Script>)[name] as Script
  return run.bind(redis)
}

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v))

export function redisStore(redis: Redis, key: string, limits: Limits): BreakerStore {
  const acquire = script(redis, COMMANDS.acquire, ACQUIRE)
  const success = script(redis, COMMANDS.success, SUCCESS)
  const failure = script(redis, COMMANDS.failure, FAILURE)
  const flag = (trial: boolean) => (trial ? '1' : '0')
  return {
    async acquire(now) {
      const [allowed, trial, state] = (await acquire(
        key,
        String(now),
        String(limits.reset_timeout_ms),
        String(limits.half_open_max_requests),
      )) as [number, number, BreakerState]
      return { allowed: allowed === 1, trial: trial === 1, state }
    },
    async success(trial) {
      await success(key, flag(trial))
    },
    async failure(trial, now) {
      await failure(key, flag(trial), String(now), String(limits.max_failures))
    },
    async read() {
      const [state, failures, openedAt, trials, halfOpenedAt] = await redis.hmget(
        key,
        'state',
        'failures',
        'opened_at',
        'trials',
        'half_opened_at',
      )
      if (!state) return CLOSED
      return {
        state: state as BreakerState,
        failures: num(failures) ?? 0,
        opened_at: num(openedAt),
        trials: num(trials) ?? 0,
        half_opened_at: num(halfOpenedAt),
      }
    },
    async reset() {
      await redis.del(key)
    },
  }
}
