import type { Migration } from 'kysely'
import * as knowledge from './20261124_0001_knowledge.ts'
import * as ticketIndex from './20261124_0002_ticket_index.ts'
import * as replies from './20261124_0003_ai_replies.ts'
import * as scopedSettings from './20261124_0004_scoped_settings.ts'
import * as replyLeases from './20261124_0005_ai_reply_leases.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261124_0001_knowledge': knowledge,
  '20261124_0002_ticket_index': ticketIndex,
  '20261124_0003_ai_replies': replies,
  '20261124_0004_scoped_settings': scopedSettings,
  '20261124_0005_ai_reply_leases': replyLeases,
}
