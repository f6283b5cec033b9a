/** The admin area's frame: the rail's links (small, in the first load) and the area itself (a lazy chunk). */
import { lazy } from 'react'

export { AdminNavLinks } from './admin-nav.tsx'
export { isAdminPath } from './sections.ts'
export const AdminArea = lazy(async () => ({ default: (await import('./admin-area.tsx')).AdminArea }))
