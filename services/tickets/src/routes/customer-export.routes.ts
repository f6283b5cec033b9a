import { customerExportRoute } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import { customerExport } from '../db/customer-export.repository.ts'

/** This unit's share of a person's export: the platform's route, the records read here. */
export const customerExportRoutes = customerExportRoute<TicketsService>((svc, ids, scope) =>
  customerExport(svc.db, ids, scope),
)
