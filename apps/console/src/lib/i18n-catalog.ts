/**
 * The strings' catalog and `translate`, without React (so Node tests can load it; `i18n.tsx` re-exports it).
 *
 * Counts: when `vars.count` is a number, the form is chosen by `Intl.PluralRules` of the locale — `<key>.<category>`
 * (`one`, `two`, `few`, `many`, `zero`) when the feature defines it, else `<key>` itself, which holds the `other`
 * form — and the count is written with the locale's digits grouping. English has `one` and `other`; Simplified
 * Chinese has only `other`, so a Chinese string never needs more than its key. A plural form is looked up in the
 * same locale only: a missing Chinese string falls back to English as a whole (key and forms by English rules),
 * never to an English form picked by Chinese rules.
 */
export const LOCALES = ['en', 'zh-CN'] as const
export type Locale = (typeof LOCALES)[number]
export type Messages = Record<string, string>
export type FeatureMessages = { en: Messages } & Partial<Record<Locale, Messages>>

const catalog: Record<Locale, Messages> = { en: {}, 'zh-CN': {} }

/** Merge a feature's strings into the catalog (call at module level in the feature's messages.ts). */
export function defineMessages<M extends FeatureMessages>(messages: M): M {
  for (const locale of LOCALES) Object.assign(catalog[locale], messages[locale])
  return messages
}

const plurals = new Map<Locale, Intl.PluralRules>()
const numbers = new Map<Locale, Intl.NumberFormat>()
function cached<T>(map: Map<Locale, T>, locale: Locale, make: () => T): T {
  let value = map.get(locale)
  if (!value) {
    value = make()
    map.set(locale, value)
  }
  return value
}

/** The CLDR plural category of `count` in `locale` (`one`/`other` in English, always `other` in Chinese). */
export const pluralCategory = (locale: Locale, count: number): Intl.LDMLPluralRule =>
  cached(plurals, locale, () => new Intl.PluralRules(locale)).select(count)

function template(locale: Locale, key: string, count: number | undefined): [Locale, string] | undefined {
  const strings = catalog[locale]
  if (count !== undefined) {
    const form = strings[`${key}.${pluralCategory(locale, count)}`]
    if (form !== undefined) return [locale, form]
  }
  const base = strings[key]
  return base === undefined ? undefined : [locale, base]
}

export function translate(locale: Locale, key: string, vars?: Record<string, string | number>): string {
  const count = typeof vars?.count === 'number' ? vars.count : undefined
  const [used, text] = template(locale, key, count) ?? template('en', key, count) ?? [locale, key]
  if (!vars) return text
  const filled: Record<string, string | number> =
    count === undefined
      ? vars
      : { ...vars, count: cached(numbers, used, () => new Intl.NumberFormat(used)).format(count) }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in filled ? String(filled[name]) : whole))
}
