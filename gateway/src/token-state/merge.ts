import type { SessionTokenState, UserTokenState } from '@switchboard/contracts'

/** A user snapshot replaces another only when its `seq` is higher: events may arrive out of order. */
export function userIsNewer(next: UserTokenState, current: UserTokenState | null | undefined): boolean {
  return !current || next.seq > current.seq
}

/**
 * Sessions carry no seq, but their state only moves one way: token_version rises and a revoked session
 * never becomes active again. So a higher version wins, and at equal versions "revoked" wins.
 */
export function sessionIsNewer(next: SessionTokenState, current: SessionTokenState | null | undefined): boolean {
  if (!current) return true
  if (next.token_version !== current.token_version) return next.token_version > current.token_version
  return current.active && !next.active
}

/** The same two rules for Redis, applied atomically so concurrent replicas can't write an older snapshot last. */
export const COMPARE_AND_SET_LUA = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local ok, c = pcall(cjson.decode, cur)
  if ok then
    local n = cjson.decode(ARGV[1])
    if ARGV[3] == 'user' then
      if tonumber(n.seq) <= tonumber(c.seq) then return 0 end
    else
      local nv, cv = tonumber(n.token_version), tonumber(c.token_version)
      if nv < cv then return 0 end
      if nv == cv and not (c.active and not n.active) then return 0 end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`
