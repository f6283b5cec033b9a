import { aiProjection } from './ai.consumer.ts'
import { conversationsProjection } from './conversations.consumer.ts'
import { identityProjection } from './identity.consumer.ts'
import type { Projection } from './projection.ts'
import { ticketsProjection } from './tickets.consumer.ts'

export type { Projection } from './projection.ts'

/** The read models' consumers, by name (`switchboard stats rebuild --projection`), each from its own stream. */
export const PROJECTIONS: readonly Projection[] = [
  identityProjection,
  ticketsProjection,
  conversationsProjection,
  aiProjection,
]
