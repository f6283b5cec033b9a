import { defineMessages } from '../../lib/i18n.tsx'

export const messages = defineMessages({
  en: {
    'admin.nav.reports': 'Reports',
    'admin.nav.audit': 'Audit',
    'admin.nav.operations': 'Operations',
    'admin.title': 'Administration',
    'admin.notPermitted': 'Not permitted',
    'admin.notPermitted.body': 'Your role may not open this page.',
    'admin.notFound': 'No such page',
    'admin.none': 'Your role has no administration pages.',
    'admin.loading': 'Loading…',
  },
  'zh-CN': {
    'admin.nav.reports': '报表',
    'admin.nav.audit': '审计',
    'admin.nav.operations': '运维',
    'admin.title': '管理',
    'admin.notPermitted': '无权访问',
    'admin.notPermitted.body': '您的角色无权打开此页面。',
    'admin.notFound': '页面不存在',
    'admin.none': '您的角色没有可用的管理页面。',
    'admin.loading': '加载中…',
  },
})
