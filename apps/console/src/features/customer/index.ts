/** The customer feature's public surface: the sidebar a conversation shows beside it. */
export { CustomerSidebar } from './customer-sidebar.tsx'
