/**
 * Light and dark themes: CSS variables (styles.css) switched by `data-theme` on <html>. The default follows the
 * system preference; the toggle's choice is kept (a preference, fine in web storage).
 */
import { useCallback, useSyncExternalStore } from 'react'

export type Theme = 'light' | 'dark'
const STORAGE_KEY = 'switchboard.theme'
const listeners = new Set<() => void>()
const media = globalThis.matchMedia?.('(prefers-color-scheme: dark)')

function chosen(): Theme | null {
  const saved = globalThis.localStorage?.getItem(STORAGE_KEY)
  return saved === 'light' || saved === 'dark' ? saved : null
}

export function currentTheme(): Theme {
  return chosen() ?? (media?.matches ? 'dark' : 'light')
}

export function applyTheme(): void {
  document.documentElement.dataset.theme = currentTheme()
  for (const listener of listeners) listener()
}

export function setTheme(theme: Theme): void {
  globalThis.localStorage?.setItem(STORAGE_KEY, theme)
  applyTheme()
}

media?.addEventListener('change', () => {
  if (!chosen()) applyTheme()
})

export function useTheme(): { theme: Theme; toggle(): void } {
  const theme = useSyncExternalStore((notify) => {
    listeners.add(notify)
    return () => listeners.delete(notify)
  }, currentTheme)
  const toggle = useCallback(() => setTheme(currentTheme() === 'dark' ? 'light' : 'dark'), [])
  return { theme, toggle }
}
