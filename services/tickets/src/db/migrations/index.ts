import type { Migration } from 'kysely'
import * as tickets0001 from './20261122_0001_tickets.ts'
import * as directory0010 from './20261124_0010_directory.ts'
import * as ticketFilters0011 from './20261124_0011_ticket_filters.ts'
import * as statusHistory0012 from './20261124_0012_ticket_status_history.ts'
import * as customFields0013 from './20261124_0013_custom_fields.ts'
import * as ticketSessions0014 from './20261124_0014_ticket_sessions.ts'
import * as sla0020 from './20261124_0020_sla.ts'
import * as satisfaction0021 from './20261124_0021_satisfaction.ts'
import * as macros0022 from './20261124_0022_macros.ts'
import * as ticketCounts0023 from './20261124_0023_ticket_counts.ts'
import * as ticketSettings0024 from './20261124_0024_ticket_settings.ts'
import * as sessionSatisfaction0030 from './20261127_0030_session_satisfaction.ts'
import * as surveySettings0031 from './20261127_0031_survey_settings.ts'
import * as ticketsScopeSession0032 from './20261127_0032_tickets_scope_session.ts'

/** Forward-only, in name order (docs/architecture.md §4). */
export const migrations: Record<string, Migration> = {
  '20261122_0001_tickets': tickets0001,
  '20261124_0010_directory': directory0010,
  '20261124_0011_ticket_filters': ticketFilters0011,
  '20261124_0012_ticket_status_history': statusHistory0012,
  '20261124_0013_custom_fields': customFields0013,
  '20261124_0014_ticket_sessions': ticketSessions0014,
  '20261124_0020_sla': sla0020,
  '20261124_0021_satisfaction': satisfaction0021,
  '20261124_0022_macros': macros0022,
  '20261124_0023_ticket_counts': ticketCounts0023,
  '20261124_0024_ticket_settings': ticketSettings0024,
  '20261127_0030_session_satisfaction': sessionSatisfaction0030,
  '20261127_0031_survey_settings': surveySettings0031,
  '20261127_0032_tickets_scope_session': ticketsScopeSession0032,
}
