/**
 * English and Simplified Chinese. The locale comes from the frame's query (`locale`), else the workspace's portal
 * (`default_locale`), else the browser; anything Chinese is zh-CN, the rest English. `t(key, vars)` fills `{name}`
 * placeholders and falls back to English, then to the key. The lazy parts keep their own strings beside them.
 */
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { en, zh } from './strings.ts'

export type Locale = 'en' | 'zh-CN'
export type Strings = Record<string, string>

const catalog: Record<Locale, Strings> = { en: { ...en }, 'zh-CN': { ...zh } }

/** Add a lazy part's strings. */
export function addStrings(more: { en: Strings; 'zh-CN': Strings }): void {
  Object.assign(catalog.en, more.en)
  Object.assign(catalog['zh-CN'], more['zh-CN'])
}

export function pickLocale(...candidates: (string | null | undefined)[]): Locale {
  for (const c of candidates) {
    if (!c) continue
    const lower = c.toLowerCase()
    if (lower.startsWith('zh')) return 'zh-CN'
    if (lower.startsWith('en')) return 'en'
  }
  return 'en'
}

/** Whether a string exists (an error code without words of its own is shown by a generic sentence). */
export const hasString = (key: string) => key in catalog.en

export type T = (key: string, vars?: Record<string, string | number>) => string

export function translator(locale: Locale): T {
  return (key, vars) => {
    const template = catalog[locale][key] ?? catalog.en[key] ?? key
    return vars ? template.replace(/\{(\w+)\}/g, (whole, n: string) => (n in vars ? String(vars[n]) : whole)) : template
  }
}

export const I18n = createContext<{ locale: Locale; t: T }>({ locale: 'en', t: translator('en') })

export const useI18n = () => useContext(I18n)
