import { defineMessages } from '../../lib/i18n.tsx'

export const presenceMessages = defineMessages({
  en: {
    'presence.label': 'Status',
    'presence.online': 'Online',
    'presence.away': 'Away',
    'presence.offline': 'Offline',
  },
  'zh-CN': {
    'presence.label': '状态',
    'presence.online': '在线',
    'presence.away': '离开',
    'presence.offline': '离线',
  },
})
