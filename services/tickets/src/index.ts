export { build, TICKETS_STREAMS } from './build.ts'
export { loadConfig, TICKETS_DEFAULT_PORT, TicketsConfig } from './config.ts'
export { TICKET_STATUSES, type TicketStatus, TRANSITIONS } from './domain/ticket-status.ts'
