import { hasPermission } from '@switchboard/auth'
import { CommonErrors, callerOf, concreteScope, errorResponses, type RouteModule } from '@switchboard/platform'
import { setTicketSettings } from '../commands/settings.commands.ts'
import type { TicketsService } from '../context.ts'
import { findTicketSettings } from '../db/ticket-settings.repository.ts'
import { TicketSettings, TicketSettingsBody } from '../schemas/ticket-settings.schemas.ts'

const tags = ['tickets']

/** Changing how a workspace's tickets are handled is an administrator's: agents' `tickets.write` is not enough. */
export const SETTINGS_PERMISSION = 'tickets.settings'

/** `GET/PUT /api/tickets/settings`: a workspace's ticket settings (auto-assignment on create). */
export const ticketSettingsRoutes: RouteModule<TicketsService> = async (app, svc) => {
  app.get(
    '/api/tickets/settings',
    { schema: { tags, response: { 200: TicketSettings, ...errorResponses(400, 401) } } },
    // a workspace's: an unscoped admin names one (X-Tenant-ID / X-Workspace-ID)
    async (request) => findTicketSettings(svc.db, concreteScope(request), svc.config),
  )

  app.put(
    '/api/tickets/settings',
    { schema: { tags, body: TicketSettingsBody, response: { 200: TicketSettings, ...errorResponses(400, 401, 403) } } },
    async (request) => {
      if (!hasPermission(request.principal.permissions, SETTINGS_PERMISSION)) {
        throw new CommonErrors.Forbidden(`permission ${SETTINGS_PERMISSION} is required to change ticket settings`)
      }
      const { before, after } = await setTicketSettings(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: 'settings', before, after }
      return after
    },
  )
}
