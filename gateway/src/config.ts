import { fileURLToPath } from 'node:url'
import { type Static, Type } from '@sinclair/typebox'
import { ACCESS_TTL_SECONDS, keyringFromEnv, SERVICE_TTL_MAX_SECONDS } from '@switchboard/auth'
import { BusConfig, CacheConfig, parseConfig, secretFromEnv } from '@switchboard/platform'
import { DEFAULT_RATE_LIMITS, RateLimitConfig } from './rate-limit-config.ts'

export const DEFAULT_PORT = 8080
/** the agent console's build (apps/console/dist), next to the gateway in the repository and in the image */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../apps/console/dist', import.meta.url))
/** the chat widget's build (apps/widget/dist: widget.js and frame/), beside the console's */
export const DEFAULT_WIDGET_DIR = fileURLToPath(new URL('../../apps/widget/dist', import.meta.url))

const Provider = Type.Object({ name: Type.String(), enabled: Type.Boolean(), api_key: Type.String() })

export const GatewayConfig = Type.Object({
  service: Type.Literal('gateway', { default: 'gateway' }),
  host: Type.String({ default: '127.0.0.1' }),
  port: Type.Integer({ minimum: 0, maximum: 65535, default: DEFAULT_PORT }),
  log_level: Type.String({ default: 'info' }),
  environment: Type.String({ default: 'development' }),
  /** Fastify trustProxy: false, true, a hop count or a list of CIDRs of the load balancers in front */
  trust_proxy: Type.Union([Type.Boolean(), Type.Integer({ minimum: 1 }), Type.Array(Type.String())], {
    default: false,
  }),
  /** prefix → service for units outside the registry (GATEWAY_EXTRA_ROUTES=/api/x=x-service,…) */
  extra_routes: Type.Record(Type.String({ pattern: '^/[a-z0-9/_-]+$' }), Type.String({ minLength: 1 }), {
    default: {},
  }),
  /** the public server's timeouts: slow clients must not hold sockets (slowloris) */
  server: Type.Object({
    /** the request line and headers must arrive within this */
    headers_timeout_ms: Type.Integer({ minimum: 1000, default: 15_000 }),
    /** the whole request (headers and body) must arrive within this */
    request_timeout_ms: Type.Integer({ minimum: 1000, default: 60_000 }),
    /** an idle keep-alive connection is closed after this; above a load balancer's idle timeout (often 60 s) */
    keep_alive_timeout_ms: Type.Integer({ minimum: 1000, default: 72_000 }),
  }),
  /** service name → base URLs (several = round-robin replicas) */
  upstreams: Type.Record(Type.String(), Type.Array(Type.String({ pattern: '^https?://' }), { minItems: 1 })),
  upstream_timeout_ms: Type.Integer({ minimum: 1, default: 15_000 }),
  upstream_connect_timeout_ms: Type.Integer({ minimum: 1, default: 3_000 }),
  /** a replica that refused or reset a connection is left out this long, then probed on /ready */
  upstream_eject_ms: Type.Integer({ minimum: 100, default: 5_000 }),
  ready_timeout_ms: Type.Integer({ minimum: 1, default: 1_500 }),
  jwt: Type.Object({
    secret: Type.String({ minLength: 1 }),
    previous_secrets: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    max_token_bytes: Type.Integer({ minimum: 256, default: 8192 }),
    /**
     * identity's access-token lifetime (JWT_ACCESS_TTL_SECONDS, the same variable on both): a user's access token
     * that lived longer (`exp − iat`, plus 5 s of skew) is refused
     */
    access_ttl_seconds: Type.Integer({
      minimum: ACCESS_TTL_SECONDS.min,
      maximum: ACCESS_TTL_SECONDS.max,
      default: ACCESS_TTL_SECONDS.default,
    }),
    /** the longest a service token (principal_kind service, `switchboard token mint`) may live */
    service_ttl_max_seconds: Type.Integer({
      minimum: SERVICE_TTL_MAX_SECONDS.min,
      maximum: SERVICE_TTL_MAX_SECONDS.max,
      default: SERVICE_TTL_MAX_SECONDS.default,
    }),
  }),
  internal_secret: Type.String({ minLength: 16 }),
  cache: CacheConfig,
  bus: BusConfig,
  cors_origins: Type.Array(Type.String(), { default: [] }),
  body_limit_bytes: Type.Integer({ minimum: 1, default: 1_048_576 }),
  /** bodies under /uploads (multipart files) may be this large; everything else body_limit_bytes */
  upload_body_limit_bytes: Type.Integer({ minimum: 1, default: 11_010_048 }),
  /** JSON bodies nested deeper than this are refused (400) before proxying */
  body_max_depth: Type.Integer({ minimum: 1, maximum: 10_000, default: 64 }),
  rate_limits: RateLimitConfig,
  /** gateway replicas sharing the limits: while Redis is down each limits in memory with 1/replicas of each */
  replicas: Type.Integer({ minimum: 1, default: 1 }),
  /** failed logins per login name (any address) within the window; then 429 until it passes */
  login_failures: Type.Object({
    max: Type.Integer({ minimum: 1, default: 10 }),
    window_seconds: Type.Integer({ minimum: 1, default: 900 }),
  }),
  /** role → permissions override (PERMISSION_TABLE_JSON); absent: the fleet default of packages/auth */
  permission_table: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  token_state: Type.Object({
    local_max_entries: Type.Integer({ minimum: 10, default: 50_000 }),
    /** a local entry is re-read from Redis after this long even without events (missed-event bound) */
    local_ttl_ms: Type.Integer({ minimum: 100, default: 60_000 }),
    /** how long "identity knows no such user/session" is believed */
    negative_ttl_ms: Type.Integer({ minimum: 100, default: 5_000 }),
    shared_ttl_ms: Type.Integer({ minimum: 1000, default: 86_400_000 }),
    fetch_timeout_ms: Type.Integer({ minimum: 1, default: 2_000 }),
    /** the denylist is re-read from Redis this often, so a replica that missed events converges */
    denied_resync_ms: Type.Integer({ minimum: 100, default: 30_000 }),
  }),
  /** the WebSocket proxy of /api/v1/ws; its limits are the fleet's own choices (docs/api.md §10) */
  websocket: Type.Object({
    /** a bigger frame closes the connection with 1009 */
    max_message_bytes: Type.Integer({ minimum: 1, default: 65_536 }),
    /** the upstream must complete its handshake within this, else the client gets 504 */
    handshake_timeout_ms: Type.Integer({ minimum: 1, default: 5_000 }),
    /** both sides are pinged this often; a side that missed the previous pong is dropped */
    ping_interval_ms: Type.Integer({ minimum: 100, default: 30_000 }),
    /** open connections per gateway replica; beyond it the upgrade gets 503 */
    max_connections: Type.Integer({ minimum: 1, default: 10_000 }),
    /** open connections per user (per address when anonymous) on this replica; beyond it 429 */
    max_connections_per_client: Type.Integer({ minimum: 1, default: 50 }),
    /** messages a client may send per second on one connection; more closes it with 1008 */
    max_messages_per_second: Type.Integer({ minimum: 1, default: 50 }),
    /** bytes queued towards a slow side before the other side stops being read (backpressure) */
    max_buffered_bytes: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  }),
  /** the built agent console served at `/` (CONSOLE_DIR); without a build there, `/` answers 503 saying how */
  console_dir: Type.String({ minLength: 1, default: DEFAULT_CONSOLE_DIR }),
  /** the built chat widget served at /widget.js and /widget/ (WIDGET_DIR) */
  widget_dir: Type.String({ minLength: 1, default: DEFAULT_WIDGET_DIR }),
  /** how long a scope's `widget.allowed_origins` (the frame's frame-ancestors) is kept before asking again */
  widget_policy_cache_ms: Type.Integer({ minimum: 0, default: 5_000 }),
  /**
   * `/demo`, a small website with the widget embedded (DEMO_SITE): on in the embedded default (`npm start`), off
   * otherwise. Its scope defaults to the one `npm start` seeds (identity's DEMO_SCOPE).
   */
  demo_site: Type.Object({
    enabled: Type.Boolean({ default: false }),
    tenant_id: Type.String({ minLength: 1, default: 'demo' }),
    workspace_id: Type.String({ minLength: 1, default: 'main' }),
  }),
  /** only read by the security baseline: a provider enabled without a key is a finding */
  providers: Type.Array(Provider, { default: [] }),
})
export type GatewayConfig = Static<typeof GatewayConfig>

type Env = Record<string, string | undefined>

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** UPSTREAM_<SERVICE>=url[,url...]; UPSTREAM_AI_ORCHESTRATOR → ai-orchestrator. */
export function upstreamsFromEnv(env: Env): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [k, v] of Object.entries(env)) {
    const m = /^UPSTREAM_([A-Z0-9_]+)$/.exec(k)
    if (!m?.[1] || /_MS$/.test(m[1])) continue
    const urls = list(v).map((u) => u.replace(/\/+$/, ''))
    if (urls.length) out[m[1].toLowerCase().replaceAll('_', '-')] = urls
  }
  return out
}

/** `a=b,c=d` → `{a: 'b', c: 'd'}` */
function pairs(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of list(v)) {
    const eq = item.lastIndexOf('=')
    if (eq > 0) out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim()
  }
  return out
}

function json(env: Env, name: string): unknown {
  const raw = env[name]
  if (!raw) return undefined
  try {
    return JSON.parse(raw)
  } catch (cause) {
    throw new Error(`${name} is not valid JSON`, { cause })
  }
}

function trustProxy(v: string | undefined): boolean | number | string[] | undefined {
  if (v === undefined || v === '') return undefined
  if (v === 'true' || v === 'false') return v === 'true'
  if (/^\d+$/.test(v)) return Number(v)
  return list(v)
}

const flag = (v: string | undefined) => v === 'true' || v === '1'

function providersFromEnv(env: Env) {
  return [
    { name: 'llm', enabled: flag(env.LLM_ENABLED), api_key: env.LLM_API_KEY ?? '' },
    {
      name: 'primary_provider',
      enabled: flag(env.PRIMARY_PROVIDER_ENABLED),
      api_key: env.PRIMARY_PROVIDER_API_KEY ?? '',
    },
    { name: 'compat_provider', enabled: flag(env.COMPAT_PROVIDER_ENABLED), api_key: env.COMPAT_PROVIDER_API_KEY ?? '' },
  ]
}

/** Pure apart from reading secret files named by *_FILE variables. Throws ConfigError listing every problem. */
export function loadConfig(env: Env): GatewayConfig {
  const keys = keyringFromEnv(env)
  const raw = {
    host: env.HOST,
    port: env.PORT,
    log_level: env.LOG_LEVEL,
    environment: env.SERVER_ENVIRONMENT ?? env.ENVIRONMENT,
    trust_proxy: trustProxy(env.TRUST_PROXY),
    upstreams: upstreamsFromEnv(env),
    extra_routes: pairs(env.GATEWAY_EXTRA_ROUTES),
    server: {
      headers_timeout_ms: env.GATEWAY_HEADERS_TIMEOUT_MS,
      request_timeout_ms: env.GATEWAY_REQUEST_TIMEOUT_MS,
      keep_alive_timeout_ms: env.GATEWAY_KEEP_ALIVE_TIMEOUT_MS,
    },
    upstream_timeout_ms: env.UPSTREAM_TIMEOUT_MS,
    upstream_connect_timeout_ms: env.UPSTREAM_CONNECT_TIMEOUT_MS,
    upstream_eject_ms: env.UPSTREAM_EJECT_MS,
    ready_timeout_ms: env.READY_TIMEOUT_MS,
    jwt: {
      secret: keys.current.secret,
      previous_secrets: keys.previous.map((k) => k.secret),
      max_token_bytes: env.MAX_TOKEN_BYTES,
      access_ttl_seconds: env.JWT_ACCESS_TTL_SECONDS,
      service_ttl_max_seconds: env.JWT_SERVICE_TTL_MAX_SECONDS,
    },
    internal_secret: secretFromEnv(env, 'INTERNAL_SECRET') ?? '',
    cache:
      env.CACHE_DRIVER === 'memory' || env.REDIS_URL === 'memory'
        ? { driver: 'memory', prefix: env.CACHE_PREFIX }
        : { driver: 'redis', url: env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: env.CACHE_PREFIX },
    bus:
      env.BUS_DRIVER === 'memory' || env.NATS_URL === 'memory'
        ? { driver: 'memory' }
        : { driver: 'nats', url: env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: env.NATS_PREFIX },
    cors_origins: list(env.CORS_ORIGINS),
    body_limit_bytes: env.BODY_LIMIT_BYTES,
    body_max_depth: env.BODY_MAX_DEPTH,
    upload_body_limit_bytes: env.UPLOAD_BODY_LIMIT_BYTES,
    rate_limits: json(env, 'RATE_LIMITS_JSON') ?? {
      ...DEFAULT_RATE_LIMITS,
      enabled: env.RATE_LIMIT_ENABLED === undefined ? true : flag(env.RATE_LIMIT_ENABLED),
    },
    permission_table: json(env, 'PERMISSION_TABLE_JSON'),
    replicas: env.GATEWAY_REPLICAS,
    login_failures: { max: env.LOGIN_FAILURES_MAX, window_seconds: env.LOGIN_FAILURES_WINDOW_SECONDS },
    token_state: {
      local_ttl_ms: env.TOKEN_STATE_LOCAL_TTL_MS,
      fetch_timeout_ms: env.TOKEN_STATE_FETCH_TIMEOUT_MS,
    },
    websocket: {
      max_message_bytes: env.WS_MAX_MESSAGE_BYTES,
      handshake_timeout_ms: env.WS_HANDSHAKE_TIMEOUT_MS,
      ping_interval_ms: env.WS_PING_INTERVAL_MS,
      max_connections: env.WS_MAX_CONNECTIONS,
      max_connections_per_client: env.WS_MAX_CONNECTIONS_PER_CLIENT,
      max_buffered_bytes: env.WS_MAX_BUFFERED_BYTES,
      max_messages_per_second: env.WS_MAX_MESSAGES_PER_SECOND,
    },
    console_dir: env.CONSOLE_DIR || undefined,
    widget_dir: env.WIDGET_DIR || undefined,
    widget_policy_cache_ms: env.WIDGET_POLICY_CACHE_MS,
    demo_site: {
      enabled: flag(env.DEMO_SITE),
      tenant_id: env.DEMO_TENANT_ID || undefined,
      workspace_id: env.DEMO_WORKSPACE_ID || undefined,
    },
    providers: providersFromEnv(env),
  }
  return parseConfig(GatewayConfig, raw)
}
