import { defineMessages } from '../../lib/i18n.tsx'

export const messages = defineMessages({
  en: {
    'setPassword.title': 'Set your password',
    'setPassword.intro': 'Choose the password you will log in with (at least 8 characters).',
    'setPassword.password': 'New password',
    'setPassword.repeat': 'Repeat the password',
    'setPassword.submit': 'Set password',
    'setPassword.short': 'The password needs at least 8 characters.',
    'setPassword.mismatch': 'The two passwords differ.',
    'setPassword.invalid':
      'This link is not valid: it was used already, has expired or is incomplete. Ask an administrator for a new one.',
    'setPassword.done': 'Password set for {username}. You can log in with it now.',
    'setPassword.login': 'Go to log in',
    'setPassword.error': 'The password could not be set: {message}',
  },
  'zh-CN': {
    'setPassword.title': '设置密码',
    'setPassword.intro': '请设置登录密码（至少 8 个字符）。',
    'setPassword.password': '新密码',
    'setPassword.repeat': '再次输入密码',
    'setPassword.submit': '设置密码',
    'setPassword.short': '密码至少需要 8 个字符。',
    'setPassword.mismatch': '两次输入的密码不一致。',
    'setPassword.invalid': '此链接无效：已被使用、已过期或不完整。请向管理员索取新链接。',
    'setPassword.done': '已为 {username} 设置密码，现在可以用它登录。',
    'setPassword.login': '前往登录',
    'setPassword.error': '无法设置密码：{message}',
  },
})
