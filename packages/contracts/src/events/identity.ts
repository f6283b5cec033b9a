import { type Static, Type } from '@sinclair/typebox'
import { Nullable } from '../common.ts'

/**
 * Token state the gateway needs to accept or refuse a token without a database query.
 * `seq` rises on every change of the user's token state, so a replica keeps the newest snapshot.
 */
export const UserTokenState = Type.Object({
  user_id: Type.String(),
  active: Type.Boolean(),
  token_version: Type.Integer(),
  token_valid_after: Nullable(Type.String()),
  seq: Type.Integer(),
})
export type UserTokenState = Static<typeof UserTokenState>

export const SessionTokenState = Type.Object({
  session_id: Type.String(),
  user_id: Type.String(),
  active: Type.Boolean(),
  token_version: Type.Integer(),
})
export type SessionTokenState = Static<typeof SessionTokenState>

export const DeniedToken = Type.Object({
  jti: Type.String(),
  user_id: Type.String(),
  session_id: Type.String(),
  token_use: Type.String(),
  expires_at: Type.String(),
})
export type DeniedToken = Static<typeof DeniedToken>

export const IdentityEvents = {
  /** user token_version / token_valid_after / active changed (revoke-tokens, deactivation, role change) */
  userTokenState: {
    type: 'identity.user.token_state_changed',
    data: Type.Object({ user: UserTokenState, reason: Type.String() }),
  },
  /** an auth session was created, refreshed (token_version raised) or revoked */
  sessionTokenState: {
    type: 'identity.session.token_state_changed',
    data: Type.Object({ session: SessionTokenState, reason: Type.String() }),
  },
  /** a jti was put on the denylist */
  tokenDenied: { type: 'identity.token.denylisted', data: DeniedToken },
  userRegistered: {
    type: 'identity.user.registered',
    data: Type.Object({ user_id: Type.String(), username: Type.String(), role: Type.String(), name: Type.String() }),
  },
  userRoleChanged: {
    type: 'identity.user.role_changed',
    data: Type.Object({ user_id: Type.String(), role: Type.String() }),
  },
  agentUpserted: {
    type: 'identity.agent.upserted',
    data: Type.Object({
      agent_id: Type.String(),
      user_id: Type.String(),
      name: Type.String(),
      department: Type.String(),
      skills: Type.Array(Type.String()),
      max_concurrent: Type.Integer(),
      status: Type.String(),
      rating: Type.Number(),
      avg_response_time: Type.Number(),
    }),
  },
  agentStatusChanged: {
    type: 'identity.agent.status_changed',
    data: Type.Object({
      agent_id: Type.String(),
      user_id: Type.String(),
      status: Type.String(),
      previous: Type.String(),
    }),
  },
  customerUpserted: {
    type: 'identity.customer.upserted',
    data: Type.Object({
      customer_id: Type.String(),
      user_id: Type.String(),
      name: Type.String(),
      source: Type.String(),
      tags: Type.Array(Type.String()),
    }),
  },
} as const
