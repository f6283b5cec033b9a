import type { ServiceContext } from '@switchboard/platform'
import type { AuditConfig } from './config.ts'
import type { AuditDatabase } from './db/database.ts'

/** What the audit routes, consumer and worker are handed (built by the descriptor in build.ts). */
export type AuditService = ServiceContext<AuditConfig, AuditDatabase>
