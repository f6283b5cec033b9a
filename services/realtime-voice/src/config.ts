import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig, serviceUrlsFromEnv } from '@switchboard/platform'

export const RealtimeOwnConfig = Type.Object({
  /** conversations' replicas (UPSTREAM_CONVERSATIONS): the hub writes and reads sessions through its internal API */
  conversations_urls: Type.Array(Type.String({ pattern: '^https?://' }), { minItems: 1 }),
  /** identity's replicas (UPSTREAM_IDENTITY): which tenants and workspaces take widget visitors */
  identity_urls: Type.Array(Type.String({ pattern: '^https?://' }), { minItems: 1 }),
  /**
   * config-governance's replicas (UPSTREAM_CONFIG_GOVERNANCE): the sites each scope's widget may be embedded in.
   * Unset (a hub run alone): no site list is enforced, as with an empty one; the hub warns at start.
   */
  config_governance_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
  /** how long a replica keeps a scope's allowed origins (HUB_EMBED_POLICY_CACHE_MS): a change holds within it */
  embed_policy_cache_ms: Type.Integer({ minimum: 0, maximum: 60_000, default: 1_000 }),
  websocket: Type.Object({
    /** a bigger frame closes the socket with 1009 */
    max_frame_bytes: Type.Integer({ minimum: 1024, default: 65_536 }),
    /** frames a client may send per second on one socket; beyond it an `error` frame, then 1008 */
    max_frames_per_second: Type.Integer({ minimum: 1, default: 20 }),
    /** typing indicators and read receipts per second per socket (they are relayed, never stored) */
    max_signals_per_second: Type.Integer({ minimum: 1, default: 5 }),
    /** open sockets per principal (per visitor address when anonymous) on this replica */
    max_sockets_per_principal: Type.Integer({ minimum: 1, default: 20 }),
    /** pings this often; a socket that missed the previous pong is dropped */
    ping_interval_ms: Type.Integer({ minimum: 100, default: 30_000 }),
    /** how often this replica writes its socket counts to the cache for `GET /api/v1/ws/stats?scope=cluster` */
    stats_interval_ms: Type.Integer({ minimum: 50, default: 5_000 }),
  }),
  webrtc: Type.Object({
    /** a connection's state is kept this long after its last signal or report */
    state_ttl_ms: Type.Integer({ minimum: 1_000, default: 3_600_000 }),
  }),
  voice: Type.Object({
    /** the recording provider: `local` keeps recordings (metadata here, audio through conversations' uploads) */
    recording_provider: Type.Union([Type.Literal('local'), Type.Literal('disabled')], { default: 'local' }),
  }),
})

export const RealtimeConfig = Type.Composite([ServiceBaseConfig, RealtimeOwnConfig])
export type RealtimeConfig = Static<typeof RealtimeConfig>

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): RealtimeConfig {
  return parseConfig(RealtimeConfig, {
    ...baseConfigFromEnv(env, UNITS['realtime-voice']),
    conversations_urls: serviceUrlsFromEnv(env, 'conversations'),
    identity_urls: serviceUrlsFromEnv(env, 'identity'),
    config_governance_urls: serviceUrlsFromEnv(env, 'config-governance'),
    embed_policy_cache_ms: env.HUB_EMBED_POLICY_CACHE_MS,
    websocket: {
      max_frame_bytes: env.HUB_MAX_FRAME_BYTES,
      max_frames_per_second: env.HUB_MAX_FRAMES_PER_SECOND,
      max_signals_per_second: env.HUB_MAX_SIGNALS_PER_SECOND,
      max_sockets_per_principal: env.HUB_MAX_SOCKETS_PER_PRINCIPAL,
      ping_interval_ms: env.HUB_PING_INTERVAL_MS,
      stats_interval_ms: env.HUB_STATS_INTERVAL_MS,
    },
    webrtc: { state_ttl_ms: env.WEBRTC_STATE_TTL_MS },
    voice: { recording_provider: env.VOICE_RECORDING_PROVIDER },
  })
}
