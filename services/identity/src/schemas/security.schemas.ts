import { type Static, Type } from '@sinclair/typebox'
import { BoundedList, Nullable, PageQuery, Paginated } from '@switchboard/contracts'
import { SessionView } from './auth.schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 128 })
const Reason = Type.String({ maxLength: 500 })

export const UserIdParams = Type.Object({ id: Id })
export type UserIdParams = Static<typeof UserIdParams>

/** GET /api/security/users/:id */
export const UserSecurityState = Type.Object({
  user_id: Type.String(),
  role: Type.String(),
  status: Type.String(),
  token_version: Type.Integer(),
  token_valid_after: Nullable(Type.String()),
  last_login: Nullable(Type.String()),
})

export const UserIdsBody = Type.Object(
  {
    user_ids: Type.Array(Id, { minItems: 1, maxItems: 200 }),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
)
export type UserIdsBody = Static<typeof UserIdsBody>

/** POST /api/security/users/query: the state plus the token_version the next revoke would set. */
export const UserQueryItem = Type.Object({
  user_id: Type.String(),
  username: Type.String(),
  name: Type.String(),
  role: Type.String(),
  /** for role admin: '' platform-wide, else the tenant it administers ('' for every other role) */
  admin_tenant_id: Type.String(),
  status: Type.String(),
  token_version: Type.Integer(),
  next_token_version: Type.Integer(),
  last_login: Nullable(Type.String()),
  token_valid_after: Nullable(Type.String()),
})
export const UserQueryResult = BoundedList(UserQueryItem)

export const RevokeTokensBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false })
export type RevokeTokensBody = Static<typeof RevokeTokensBody>

export const UserRevokeResult = Type.Object({
  user_id: Type.String(),
  role: Type.String(),
  token_version: Type.Integer(),
})
export const BatchRevokeResult = BoundedList(Type.Object({ user_id: Type.String(), token_version: Type.Integer() }))

export const UserSessionsResult = Type.Object({
  user_id: Type.String(),
  count: Type.Integer(),
  items: Type.Array(SessionView),
})

export const RevokeSessionBody = Type.Object(
  { session_id: Id, reason: Type.Optional(Reason) },
  { additionalProperties: false },
)
export type RevokeSessionBody = Static<typeof RevokeSessionBody>

export const RevokedSession = Type.Object({
  session_id: Type.String(),
  status: Type.String(),
  token_version: Type.Integer(),
  revoked_at: Nullable(Type.String()),
})
export const RevokeSessionResult = Type.Composite([Type.Object({ user_id: Type.String() }), RevokedSession])

export const RevokeAllBody = Type.Object(
  { except_session_id: Type.Optional(Id), reason: Type.Optional(Reason) },
  { additionalProperties: false },
)
export type RevokeAllBody = Static<typeof RevokeAllBody>

export const RevokeAllResult = Type.Object({
  user_id: Type.String(),
  count: Type.Integer(),
  except_session_id: Nullable(Type.String()),
  items: Type.Array(RevokedSession),
})

export const RevokeTokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 8192 }), reason: Type.Optional(Reason) },
  { additionalProperties: false },
)
export type RevokeTokenBody = Static<typeof RevokeTokenBody>

export const RevokedToken = Type.Object({
  jti: Type.String(),
  user_id: Type.String(),
  session_id: Type.String(),
  token_use: Type.String(),
  expires_at: Type.String(),
  revoked_at: Type.String(),
})

export const RevokedTokenRecord = Type.Composite([
  RevokedToken,
  Type.Object({ revoked_by: Type.String(), reason: Type.String() }),
])

export const RevokedTokensQuery = Type.Composite([
  PageQuery,
  Type.Object({
    jti: Type.Optional(Id),
    user_id: Type.Optional(Id),
    session_id: Type.Optional(Id),
    token_use: Type.Optional(Type.Union([Type.Literal('access'), Type.Literal('refresh')])),
    active_only: Type.Optional(Type.Boolean({ default: false })),
  }),
])
export type RevokedTokensQuery = Static<typeof RevokedTokensQuery>
export const RevokedTokensPage = Paginated(RevokedTokenRecord)
