import type { Migration } from 'kysely'
import * as conversations0001 from './20261124_0001_conversations.ts'
import * as messageSeq0002 from './20261124_0002_message_seq.ts'
import * as customers0010 from './20261124_0010_customers.ts'
import * as customerTickets0020 from './20261127_0020_customer_tickets.ts'
import * as messageVisibility0030 from './20261127_0030_message_visibility.ts'
import * as inbox0040 from './20261127_0040_inbox.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261124_0001_conversations': conversations0001,
  '20261124_0002_message_seq': messageSeq0002,
  '20261124_0010_customers': customers0010,
  '20261127_0020_customer_tickets': customerTickets0020,
  '20261127_0030_message_visibility': messageVisibility0030,
  '20261127_0040_inbox': inbox0040,
}
