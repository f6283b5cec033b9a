import { Value } from '@sinclair/typebox/value'
import { IdentityEvents } from '@switchboard/contracts'
import type { EventBus, Subscription } from '@switchboard/events'
import type { Logger } from '@switchboard/platform'
import type { TokenState } from './token-state.ts'

/** Subject filter of identity's events; subscribe() fans out, so every gateway replica sees each one. */
export const IDENTITY_SUBJECTS = 'identity.>'

/** Applies identity's token-state events to this replica's cache (and the shared one). Others are ignored. */
export async function subscribeTokenState(bus: EventBus, state: TokenState, logger: Logger): Promise<Subscription> {
  return bus.subscribe(IDENTITY_SUBJECTS, async ({ envelope, subject }) => {
    const { type, data } = envelope
    if (type === IdentityEvents.userTokenState.type && Value.Check(IdentityEvents.userTokenState.data, data)) {
      await state.applyUser(data.user)
    } else if (
      type === IdentityEvents.sessionTokenState.type &&
      Value.Check(IdentityEvents.sessionTokenState.data, data)
    ) {
      await state.applySession(data.session)
    } else if (type === IdentityEvents.tokenDenied.type && Value.Check(IdentityEvents.tokenDenied.data, data)) {
      await state.applyDenied(data)
    } else if (type === IdentityEvents.scopeStatus.type && Value.Check(IdentityEvents.scopeStatus.data, data)) {
      state.applyScope(data)
    } else if (type.endsWith('token_state_changed') || type === IdentityEvents.tokenDenied.type) {
      logger.warn({ type, subject }, 'token state: event with unexpected payload ignored')
    }
  })
}
