export { NotificationControls } from './notification-controls.tsx'
export { REMINDER_MS } from './reminder.ts'
