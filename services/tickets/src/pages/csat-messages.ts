/** The CSAT page's words, English and Simplified Chinese (`?lang=` or Accept-Language picks one). */
export const CSAT_LOCALES = ['en', 'zh-CN'] as const
export type CsatLocale = (typeof CSAT_LOCALES)[number]

export interface CsatMessages {
  siteName: string
  title: string
  description: string
  about: (ticket: string, agent: string) => string
  aboutNoAgent: (ticket: string) => string
  ratingLegend: string
  /** 1 … 5, worst to best */
  ratings: readonly [string, string, string, string, string]
  commentLabel: string
  commentHint: string
  submit: string
  chooseRating: string
  commentTooLong: (max: number) => string
  thanksTitle: string
  thanksText: string
  answeredTitle: string
  answeredText: string
  expiredTitle: string
  expiredText: string
  unknownTitle: string
  unknownText: string
  badRequestTitle: string
  badRequestText: string
}

const en: CsatMessages = {
  siteName: 'Customer survey',
  title: 'How did we do?',
  description: 'Tell us how satisfied you are with the help you received.',
  about: (ticket, agent) => `About your request “${ticket}”, handled by ${agent}.`,
  aboutNoAgent: (ticket) => `About your request “${ticket}”.`,
  ratingLegend: 'How satisfied are you with the help you received?',
  ratings: ['Very dissatisfied', 'Dissatisfied', 'Neither satisfied nor dissatisfied', 'Satisfied', 'Very satisfied'],
  commentLabel: 'Anything you would like to add? (optional)',
  commentHint: 'At most 2,000 characters.',
  submit: 'Send my answer',
  chooseRating: 'Please choose a rating from 1 to 5.',
  commentTooLong: (max) => `The comment is too long: at most ${max} characters.`,
  thanksTitle: 'Thank you!',
  thanksText: 'Your answer has been recorded. It helps us help you better.',
  answeredTitle: 'This survey has already been answered',
  answeredText: 'An answer for this request was already recorded, so this link cannot be used again. Thank you!',
  expiredTitle: 'This survey has expired',
  expiredText: 'Survey links can be answered for seven days after the request was closed, and this one has run out.',
  unknownTitle: 'Survey not found',
  unknownText: 'This survey link is not valid. Check that the whole link was copied, or use the newest one we sent.',
  badRequestTitle: 'Answer not understood',
  badRequestText: 'This answer could not be read. Please go back to the survey and send it again.',
}

const zhCN: CsatMessages = {
  siteName: '满意度调查',
  title: '我们的服务如何？',
  description: '请告诉我们您对所获得帮助的满意程度。',
  about: (ticket, agent) => `关于您的请求“${ticket}”，由 ${agent} 处理。`,
  aboutNoAgent: (ticket) => `关于您的请求“${ticket}”。`,
  ratingLegend: '您对所获得的帮助满意吗？',
  ratings: ['非常不满意', '不满意', '一般', '满意', '非常满意'],
  commentLabel: '还有什么想补充的吗？（选填）',
  commentHint: '最多 2000 个字符。',
  submit: '提交我的回答',
  chooseRating: '请选择 1 到 5 的评分。',
  commentTooLong: (max) => `评论过长：最多 ${max} 个字符。`,
  thanksTitle: '谢谢！',
  thanksText: '您的回答已记录，这将帮助我们更好地为您服务。',
  answeredTitle: '此调查已被回答',
  answeredText: '此请求的回答已被记录，因此该链接不能再次使用。谢谢！',
  expiredTitle: '此调查已过期',
  expiredText: '调查链接在请求关闭后七天内有效，此链接已过期。',
  unknownTitle: '找不到调查',
  unknownText: '此调查链接无效。请确认复制了完整的链接，或使用我们发送的最新链接。',
  badRequestTitle: '无法识别的回答',
  badRequestText: '无法读取此回答。请返回调查页面重新提交。',
}

export const CSAT_MESSAGES: Record<CsatLocale, CsatMessages> = { en, 'zh-CN': zhCN }
