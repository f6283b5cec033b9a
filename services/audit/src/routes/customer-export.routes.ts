import { customerExportRoute } from '@switchboard/platform'
import type { AuditService } from '../context.ts'
import { customerExport } from '../db/customer-export.repository.ts'

/** This unit's share of a person's export: the platform's route, the records read here. */
export const customerExportRoutes = customerExportRoute<AuditService>((svc, ids, scope) =>
  customerExport(svc.db, ids, scope),
)
