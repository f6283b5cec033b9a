import { Session } from '@switchboard/contracts/conversations-api.ts'
import { Paginated } from '@switchboard/platform'

// The shapes other services see live in packages/contracts (conversations-api.ts); conversations re-exports them.
export {
  Channel,
  Id,
  Message,
  Priority,
  Session,
  SessionParams,
  SessionStatus,
  UserId,
  userId,
} from '@switchboard/contracts/conversations-api.ts'

export const SessionPage = Paginated(Session)
