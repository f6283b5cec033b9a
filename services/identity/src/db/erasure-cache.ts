import type { Cache } from '@switchboard/platform'

/** A glob pattern matching `text` literally. */
const literal = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&')

/**
 * Deletes every key under the cache's prefix whose name carries the tenant's id (SCAN, never KEYS: the keyspace is
 * shared and live); the number deleted. The fleet's units share one prefix, so this reaches the gateway's rate-limit
 * windows and every unit's caches and presence; the in-memory cache has nothing shared to scan.
 */
export async function deleteTenantKeys(cache: Cache, tenantId: string): Promise<number> {
  const redis = cache.redis
  if (!redis || tenantId.length === 0) return 0
  const match = `${literal(cache.prefix)}*${literal(tenantId)}*`
  let cursor = '0'
  let deleted = 0
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) deleted += await redis.del(...keys)
  } while (cursor !== '0')
  return deleted
}
