import { type Static, Type } from '@sinclair/typebox'
import { BoundedList } from '@switchboard/contracts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const ScopeId = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' })

/** `GET /api/v1/ws` (the upgrade): everything optional; other parameters a client adds are ignored. */
export const SocketQuery = Type.Object({
  session_id: Type.Optional(Id),
  after: Type.Optional(Id),
  /** an anonymous widget's scope: where its first message starts a session */
  tenant_id: Type.Optional(ScopeId),
  workspace_id: Type.Optional(ScopeId),
  /** the origin of the page that embeds the widget (the loader's `location.origin`), checked against its list */
  embed_origin: Type.Optional(Type.String({ maxLength: 300 })),
})
export type SocketQuery = Static<typeof SocketQuery>

export const StatsQuery = Type.Object({
  scope: Type.Union([Type.Literal('replica'), Type.Literal('cluster')], {
    default: 'replica',
    description: "this replica's sockets, or every live replica's summed",
  }),
})

const ByKind = Type.Object({
  visitor: Type.Integer(),
  customer: Type.Integer(),
  console: Type.Integer(),
  service: Type.Integer(),
})

const Counts = {
  connected_clients: Type.Integer(),
  by_kind: ByKind,
  /** sessions with at least one joined socket (summed over replicas: one with sockets on two counts twice) */
  sessions_with_sockets: Type.Integer(),
}

export const SocketStats = Type.Object({
  ...Counts,
  /** the replica that answered */
  replica: Type.String(),
  /** `scope=cluster`: each live replica's own counts */
  replicas: Type.Optional(Type.Array(Type.Object({ replica: Type.String(), updated_at: Type.String(), ...Counts }))),
})
export type SocketStats = Static<typeof SocketStats>

export const ConnectionParty = Type.Object({ kind: Type.String(), id: Type.String() })

export const Connection = Type.Object({
  connection_id: Type.String(),
  session_id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  participants: Type.Array(ConnectionParty),
  connection_state: Type.String(),
  ice_connection_state: Type.String(),
  ice_gathering_state: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
})

export const WebrtcStatsQuery = Type.Object({ session_id: Type.Optional(Id) })

/** Overall (`connection_count` in the caller's scope), or one session's connection with `?session_id=`. */
export const WebrtcStats = Type.Union([
  Type.Object({
    connection_count: Type.Integer(),
    scope: Type.Object({ tenant_id: Type.String(), workspace_id: Type.String() }),
  }),
  Connection,
])

export const ConnectionList = BoundedList(Connection)
