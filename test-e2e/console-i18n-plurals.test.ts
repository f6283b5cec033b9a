// The console's plural forms, in Node against the app's own catalog (apps/console/src/lib/i18n-catalog.ts, what
// `t()` calls): a numeric `count` picks `<key>.<category>` by Intl.PluralRules of the locale — English "1
// conversation" / "0, 2, 1.5 conversations", Simplified Chinese one form for every count — and is written with the
// locale's grouping; a Chinese string missing falls back to English whole, and an English `.one` is never used for
// Chinese. The feature strings that count (inbox, tickets, audit, dead letters, ratings) define their English `.one` forms.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { defineMessages, pluralCategory, translate } from '../apps/console/src/lib/i18n-catalog.ts'

defineMessages({
  en: {
    'plural.conversations': '{count} conversations',
    'plural.conversations.one': '{count} conversation',
    'plural.onlyEnglish': '{count} widgets',
    'plural.onlyEnglish.one': '{count} widget',
    'plural.plain': 'Hello {name}',
  },
  'zh-CN': { 'plural.conversations': '共 {count} 个会话', 'plural.plain': '你好 {name}' },
})

t.test('English: one and other by Intl.PluralRules', async (t) => {
  t.equal(translate('en', 'plural.conversations', { count: 1 }), '1 conversation')
  t.equal(translate('en', 'plural.conversations', { count: 0 }), '0 conversations')
  t.equal(translate('en', 'plural.conversations', { count: 2 }), '2 conversations')
  t.equal(translate('en', 'plural.conversations', { count: 1.5 }), '1.5 conversations')
  t.equal(translate('en', 'plural.conversations', { count: 1234 }), '1,234 conversations', 'grouped digits')
  t.equal(pluralCategory('en', 1), 'one')
  t.equal(pluralCategory('en', 21), 'other')
})

t.test('Simplified Chinese: one form for every count', async (t) => {
  for (const n of [0, 1, 2, 21]) t.equal(pluralCategory('zh-CN', n), 'other', `category of ${n}`)
  t.equal(translate('zh-CN', 'plural.conversations', { count: 1 }), '共 1 个会话', 'never the English .one')
  t.equal(translate('zh-CN', 'plural.conversations', { count: 12000 }), '共 12,000 个会话')
  t.equal(translate('zh-CN', 'plural.onlyEnglish', { count: 1 }), '1 widget', 'missing: English as a whole')
  t.equal(translate('zh-CN', 'plural.onlyEnglish', { count: 3 }), '3 widgets')
})

t.test('no count, a string count, an unknown key: as before', async (t) => {
  t.equal(translate('en', 'plural.plain', { name: 'Ann' }), 'Hello Ann')
  t.equal(translate('zh-CN', 'plural.plain', { name: 'Ann' }), '你好 Ann')
  t.equal(translate('en', 'plural.conversations', { count: '1' }), '1 conversations', 'a string is text, no form')
  t.equal(translate('en', 'plural.nothing', { count: 1 }), 'plural.nothing')
})

t.test("the console's counted strings define their English singular", async (t) => {
  const src = (f: string) => readFileSync(new URL(`../apps/console/src/features/${f}`, import.meta.url), 'utf8')
  const wanted: Record<string, string[]> = {
    'inbox/messages.ts': ["'inbox.count.one': '{count} conversation'", "'inbox.messages.one': '{count} message'"],
    'tickets/messages.ts': ["'tickets.total.one': '{count} ticket'"],
    'audit/messages.ts': ["'audit.total.one': '{count} record'", "'audit.changes.count.one': '{count} changed path'"],
    'operations/messages.ts': ["'ops.dead.count.one': '{count} dead letter'"],
    'reports/messages.ts': ["'reports.ratings.summary.one': '{count} rating, mean {mean} (UTC days)'"],
  }
  for (const [file, lines] of Object.entries(wanted)) {
    for (const line of lines) t.ok(src(file).includes(line), `${file}: ${line}`)
  }
})
