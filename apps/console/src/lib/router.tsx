/** A tiny router on the history API: the current path as state, `navigate`, and a `Link` that pushes. */
import { type AnchorHTMLAttributes, type MouseEvent, useCallback, useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()
globalThis.addEventListener?.('popstate', () => {
  for (const listener of listeners) listener()
})

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return
  if (options.replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  for (const listener of listeners) listener()
}

export function usePath(): string {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify)
      return () => listeners.delete(notify)
    },
    () => window.location.pathname,
  )
}

/** `/conversations/:id` → `{id}` when `path` matches `pattern`, else null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!)
    else if (part !== got[i]) return null
  }
  return params
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event)
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
      event.preventDefault()
      navigate(href)
    },
    [href, onClick],
  )
  return <a href={href} onClick={handle} {...rest} />
}
