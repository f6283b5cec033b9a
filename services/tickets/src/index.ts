export { build, tickets as service, tickets } from './build.ts'
export { loadConfig, TicketsConfig } from './config.ts'
export type { TicketsService } from './context.ts'
export { TICKET_STATUSES, type TicketStatus, TRANSITIONS } from './domain/ticket-status.ts'
