export { PresenceControl } from './presence-control.tsx'
