import { type Static, Type } from '@sinclair/typebox'
import { UNITS } from '@switchboard/contracts'
import { baseConfigFromEnv, parseConfig, ServiceBaseConfig, serviceUrlsFromEnv } from '@switchboard/platform'

export const ConversationsOwnConfig = Type.Object({
  messages: Type.Object({
    /** text of one message, in bytes (UTF-8); beyond it 413 */
    max_bytes: Type.Integer({ minimum: 1, maximum: 1_048_576, default: 16_384 }),
    /** metadata of one message, as JSON, in bytes */
    max_metadata_bytes: Type.Integer({ minimum: 64, maximum: 65_536, default: 4096 }),
  }),
  queue: Type.Object({
    /** the waiting queue is processed this often on every replica (besides on every event that frees an agent) */
    interval_ms: Type.Integer({ minimum: 100, default: 5000 }),
    /** waiting sessions taken per pass */
    batch: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  }),
  uploads: Type.Object({
    /** `file`: under `dir` (the embedded default); `database`: in the service's own tables (the fleet) */
    store: Type.Union([Type.Literal('file'), Type.Literal('database')]),
    dir: Type.String({ default: './data/uploads' }),
    max_bytes: Type.Integer({ minimum: 1, default: 10_485_760 }),
    /** files one session may hold; past it 409 (each is up to max_bytes, kept until the session's data goes) */
    max_per_session: Type.Integer({ minimum: 1, maximum: 100_000, default: 50 }),
    content_types: Type.Array(Type.String(), {
      // audio: voice recordings (realtime-voice keeps their audio here)
      default: [
        'image/png',
        'image/jpeg',
        'image/gif',
        'image/webp',
        'application/pdf',
        'text/plain',
        'audio/webm',
        'audio/ogg',
        'audio/mpeg',
        'audio/wav',
      ],
    }),
  }),
  references: Type.Object({
    /**
     * how long a person a request names (customer_id, agent_id …) is looked for in the projections of identity's
     * events before it is refused as unknown: a customer or agent made a moment ago may not have arrived yet
     */
    wait_ms: Type.Integer({ minimum: 0, maximum: 30_000, default: 2000 }),
  }),
  /**
   * tickets' replicas (UPSTREAM_TICKETS): a widget visitor's rating of a closed conversation is stored there (tickets
   * owns satisfactions). Unset: `POST /public/widget/sessions/:id/satisfaction` answers 503.
   */
  tickets_urls: Type.Array(Type.String({ pattern: '^https?://' }), { default: [] }),
  /** identity's agent events feed the agents projection */
  consumer_max_deliver: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
})

export const ConversationsConfig = Type.Composite([ServiceBaseConfig, ConversationsOwnConfig])
export type ConversationsConfig = Static<typeof ConversationsConfig>

const list = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)

/** Pure: the environment in, a checked config out (docs/conventions.md §10). */
export function loadConfig(env: NodeJS.ProcessEnv): ConversationsConfig {
  const base = baseConfigFromEnv(env, UNITS.conversations)
  return parseConfig(ConversationsConfig, {
    ...base,
    messages: { max_bytes: env.MESSAGE_MAX_BYTES, max_metadata_bytes: env.MESSAGE_MAX_METADATA_BYTES },
    queue: { interval_ms: env.QUEUE_INTERVAL_MS, batch: env.QUEUE_BATCH },
    uploads: {
      // Never a replica's local disk in the fleet: files only where one process owns the data directory.
      store: env.UPLOAD_STORE ?? (base.database.driver === 'sqlite' ? 'file' : 'database'),
      dir: env.UPLOAD_DIR ?? `${env.DATA_DIR ?? './data'}/uploads`,
      max_bytes: env.UPLOAD_MAX_BYTES,
      max_per_session: env.UPLOAD_MAX_PER_SESSION,
      content_types: list(env.UPLOAD_CONTENT_TYPES),
    },
    references: { wait_ms: env.REFERENCE_WAIT_MS },
    consumer_max_deliver: env.CONVERSATIONS_CONSUMER_MAX_DELIVER,
    tickets_urls: serviceUrlsFromEnv(env, 'tickets'),
  })
}
