import { type Static, Type } from '@sinclair/typebox'

/** requests_per_minute over a 60 s window and burst over a 1 s window (two fixed windows per scope). */
export const Limit = Type.Object({
  requests_per_minute: Type.Integer({ minimum: 1 }),
  burst: Type.Integer({ minimum: 1 }),
})
export type Limit = Static<typeof Limit>

export const RateLimitConfig = Type.Object({
  enabled: Type.Boolean({ default: true }),
  global: Limit,
  /** longest matching prefix wins; the global limit applies as well */
  prefixes: Type.Array(Type.Composite([Type.Object({ prefix: Type.String({ pattern: '^/' }) }), Limit])),
  /** counted per value of the header (hashed), independently of the client address */
  header_keys: Type.Array(Type.Composite([Type.Object({ header: Type.String({ minLength: 1 }) }), Limit])),
})
export type RateLimitConfig = Static<typeof RateLimitConfig>

/**
 * Defaults (docs/api.md §9). Besides global and the AI/public prefixes, every path family the security
 * baseline names gets its own limit, so the defaults pass the baseline.
 */
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  enabled: true,
  global: { requests_per_minute: 300, burst: 50 },
  prefixes: [
    { prefix: '/api/v1/ai/', requests_per_minute: 60, burst: 10 },
    { prefix: '/public/', requests_per_minute: 120, burst: 20 },
    { prefix: '/public/kb/', requests_per_minute: 60, burst: 15 },
    { prefix: '/public/csat/', requests_per_minute: 30, burst: 10 },
    // the chat widget's anonymous calls (availability, a rating); a ticket makes a customer: tighter
    { prefix: '/public/widget/', requests_per_minute: 60, burst: 20 },
    { prefix: '/public/widget/tickets', requests_per_minute: 10, burst: 3 },
    // the public pages: one request per page (the stylesheet is inline), so like the JSON they render
    { prefix: '/help/', requests_per_minute: 60, burst: 15 },
    { prefix: '/csat/', requests_per_minute: 30, burst: 10 },
    { prefix: '/api/v1/auth/', requests_per_minute: 30, burst: 10 },
    { prefix: '/api/v1/ws', requests_per_minute: 60, burst: 20 },
    { prefix: '/uploads/', requests_per_minute: 60, burst: 10 },
    { prefix: '/api/v1/metrics/ingest', requests_per_minute: 600, burst: 100 },
    { prefix: '/api/', requests_per_minute: 300, burst: 50 },
  ],
  header_keys: [{ header: 'x-api-key', requests_per_minute: 120, burst: 20 }],
}
