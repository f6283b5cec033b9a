/**
 * A component loaded on first use (a dynamic import: its own chunk, not in the first load). Written here rather
 * than taken from preact/compat, whose `lazy`/`Suspense` would bring the whole compat layer into the budget.
 */
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'

export function lazy<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<ComponentType<P>> | null = null
  return function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded)
    useEffect(() => {
      if (C) return
      let live = true
      pending ??= load().then((c) => (loaded = c))
      pending.then(
        (c) => live && setC(() => c),
        () => {
          // a chunk that did not load (offline): the next render tries again
          pending = null
        },
      )
      return () => {
        live = false
      }
    }, [C])
    return C ? <C {...props} /> : null
  }
}
