/** The help centre's words, English and Simplified Chinese (`?lang=` or Accept-Language picks one). */
export const HELP_LOCALES = ['en', 'zh-CN'] as const
export type HelpLocale = (typeof HELP_LOCALES)[number]

export interface HelpMessages {
  siteName: string
  homeDescription: string
  searchLabel: string
  searchPlaceholder: string
  searchButton: string
  searchTitle: string
  resultsFor: (q: string) => string
  resultCount: (n: number) => string
  noResults: string
  emptySearch: string
  categoriesHeading: string
  allInCategory: (n: number, category: string) => string
  categoryDescription: (category: string) => string
  articleCount: (n: number) => string
  general: string
  updated: (date: string) => string
  tags: string
  backHome: string
  breadcrumb: string
  language: string
  pages: string
  previous: string
  next: string
  pageOf: (page: number, pages: number) => string
  notFoundTitle: string
  notFoundText: string
  badRequestTitle: string
  badRequestText: string
  footer: string
}

const en: HelpMessages = {
  siteName: 'Help centre',
  homeDescription: 'Answers to common questions: browse the articles by topic or search them.',
  searchLabel: 'Search the help centre',
  searchPlaceholder: 'Describe your question',
  searchButton: 'Search',
  searchTitle: 'Search',
  resultsFor: (q) => `Results for “${q}”`,
  resultCount: (n) => (n === 1 ? '1 article found' : `${n} articles found`),
  noResults: 'No article matches these words. Try fewer or other words.',
  emptySearch: 'Type a few words about your question.',
  categoriesHeading: 'Topics',
  allInCategory: (n, category) => `All ${n} articles in ${category}`,
  categoryDescription: (category) => `Help centre articles about ${category}.`,
  articleCount: (n) => (n === 1 ? '1 article' : `${n} articles`),
  general: 'General',
  updated: (date) => `Updated ${date}`,
  tags: 'Tags',
  backHome: 'Back to the help centre',
  breadcrumb: 'Breadcrumb',
  language: 'Language',
  pages: 'Pages',
  previous: 'Previous page',
  next: 'Next page',
  pageOf: (page, pages) => `Page ${page} of ${pages}`,
  notFoundTitle: 'Page not found',
  notFoundText: 'There is no such page in this help centre. It may have been moved or unpublished.',
  badRequestTitle: 'Request not understood',
  badRequestText: 'This address is not one the help centre understands (a search of more than 200 characters?).',
  footer: 'Powered by Switchboard',
}

const zhCN: HelpMessages = {
  siteName: '帮助中心',
  homeDescription: '常见问题解答：按主题浏览文章，或搜索。',
  searchLabel: '搜索帮助中心',
  searchPlaceholder: '描述您的问题',
  searchButton: '搜索',
  searchTitle: '搜索',
  resultsFor: (q) => `“${q}”的搜索结果`,
  resultCount: (n) => `找到 ${n} 篇文章`,
  noResults: '没有与这些词匹配的文章。请尝试更少或其他的词。',
  emptySearch: '请输入几个与您的问题相关的词。',
  categoriesHeading: '主题',
  allInCategory: (n, category) => `查看“${category}”中的全部 ${n} 篇文章`,
  categoryDescription: (category) => `帮助中心中关于“${category}”的文章。`,
  articleCount: (n) => `${n} 篇文章`,
  general: '常规',
  updated: (date) => `更新于 ${date}`,
  tags: '标签',
  backHome: '返回帮助中心',
  breadcrumb: '导航路径',
  language: '语言',
  pages: '分页',
  previous: '上一页',
  next: '下一页',
  pageOf: (page, pages) => `第 ${page} 页，共 ${pages} 页`,
  notFoundTitle: '找不到页面',
  notFoundText: '此帮助中心没有这个页面，它可能已被移动或取消发布。',
  badRequestTitle: '无法理解的请求',
  badRequestText: '帮助中心无法理解这个地址（搜索内容是否超过 200 个字符？）。',
  footer: '由 Switchboard 提供支持',
}

export const HELP_MESSAGES: Record<HelpLocale, HelpMessages> = { en, 'zh-CN': zhCN }

/** Names of the languages in themselves, for the switch. */
export const LOCALE_NAMES: Record<HelpLocale, string> = { en: 'English', 'zh-CN': '简体中文' }
