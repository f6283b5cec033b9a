/**
 * i18n plumbing: English and Simplified Chinese. Each feature keeps its strings in its own `messages.ts`
 * (`{en: {...}, 'zh-CN': {...}}`, keys prefixed by the feature) and registers them with `defineMessages`;
 * `t(key, vars)` fills `{name}` placeholders and falls back to English, then to the key; a numeric `count` picks
 * the plural form (`<key>.one` …, see i18n-catalog.ts) and is written in the locale's digits.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { type Locale, translate } from './i18n-catalog.ts'

export {
  defineMessages,
  type FeatureMessages,
  LOCALES,
  type Locale,
  type Messages,
  pluralCategory,
  translate,
} from './i18n-catalog.ts'

// the language is a preference, not a secret: web storage is fine for it
const STORAGE_KEY = 'switchboard.locale'

function initialLocale(): Locale {
  const saved = globalThis.localStorage?.getItem(STORAGE_KEY)
  if (saved === 'en' || saved === 'zh-CN') return saved
  return navigator.language?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
}

export interface I18nValue {
  locale: Locale
  setLocale(locale: Locale): void
  t(key: string, vars?: Record<string, string | number>): string
  /** numbers and dates through Intl in the current locale */
  formatNumber(value: number): string
  formatTime(iso: string): string
}

const I18nContext = createContext<I18nValue | null>(null)

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale)
  useEffect(() => {
    document.documentElement.lang = locale
  }, [locale])
  const setLocale = useCallback((next: Locale) => {
    globalThis.localStorage?.setItem(STORAGE_KEY, next)
    setLocaleState(next)
  }, [])
  const value = useMemo<I18nValue>(() => {
    const numbers = new Intl.NumberFormat(locale)
    const times = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' })
    return {
      locale,
      setLocale,
      t: (key, vars) => translate(locale, key, vars),
      formatNumber: (value) => numbers.format(value),
      formatTime: (iso) => times.format(new Date(iso)),
    }
  }, [locale, setLocale])
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext)
  if (!value) throw new Error('useI18n outside I18nProvider')
  return value
}
