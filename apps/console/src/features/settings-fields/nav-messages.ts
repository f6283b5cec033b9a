/** The navigation link's name, in the first load (the screen's own messages are in its lazy chunk). */
import { defineMessages } from '../../lib/i18n.tsx'
import './nav.css'

export const navMessages = defineMessages({
  en: { 'admin.nav.fields': 'Custom fields' },
  'zh-CN': { 'admin.nav.fields': '自定义字段' },
})
