/** The navigation link's name and icon, in the first load (the screen's own messages are in its lazy chunk). */
import { defineMessages } from '../../lib/i18n.tsx'
import './nav.css'

export const navMessages = defineMessages({
  en: { 'admin.nav.supervision': 'Supervision' },
  'zh-CN': { 'admin.nav.supervision': '实时监控' },
})
