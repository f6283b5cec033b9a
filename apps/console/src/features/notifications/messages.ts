import { defineMessages } from '../../lib/i18n.tsx'

export const notificationMessages = defineMessages({
  en: {
    'notifications.label': 'Notifications',
    'notifications.enableSound': 'Enable sound',
    'notifications.enableNotifications': 'Enable notifications',
    'notifications.notificationsBlocked': 'Notifications blocked by the browser',
    'notifications.newMessage': 'New customer message',
    'notifications.messageFrom': 'New message from {name}',
    'notifications.waiting': 'Customers are waiting in the queue',
  },
  'zh-CN': {
    'notifications.label': '通知',
    'notifications.enableSound': '开启声音',
    'notifications.enableNotifications': '开启通知',
    'notifications.notificationsBlocked': '浏览器已阻止通知',
    'notifications.newMessage': '新的客户消息',
    'notifications.messageFrom': '{name} 发来新消息',
    'notifications.waiting': '有客户在队列中等待',
  },
})
