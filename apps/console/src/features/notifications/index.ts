export { NotificationControls, REMINDER_MS } from './notification-controls.tsx'
