/** The navigation link's name, in the first load (the screen's own messages are in its lazy chunk). */
import { defineMessages } from '../../lib/i18n.tsx'
import './nav.css'

export const navMessages = defineMessages({
  en: { 'admin.nav.workspaces': 'Workspaces' },
  'zh-CN': { 'admin.nav.workspaces': '租户与工作区' },
})
