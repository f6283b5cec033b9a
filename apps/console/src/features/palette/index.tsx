/**
 * The console's global keys: Ctrl/Cmd+K opens the command palette, `?` the "Keyboard shortcuts" sheet (never while
 * typing in a text field). The dialogs load lazily; closing one returns focus to where it was.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { isTextField } from '../../lib/keyboard.ts'

const Palette = lazy(() => import('./palette.tsx').then((m) => ({ default: m.Palette })))
const CheatSheet = lazy(() => import('./cheat-sheet.tsx').then((m) => ({ default: m.CheatSheet })))

type Open = 'palette' | 'keys' | null

export function KeyboardLayer() {
  const [open, setOpen] = useState<Open>(null)
  const returnTo = useRef<HTMLElement | null>(null)
  const wasOpen = useRef(false)

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.altKey) return
      const command = event.ctrlKey || event.metaKey
      let next: Open = null
      if (command && !event.shiftKey && event.key.toLowerCase() === 'k') next = 'palette'
      else if (!command && event.key === '?' && !isTextField(event.target)) next = 'keys'
      else return
      event.preventDefault()
      setOpen((current) => {
        if (current) return current
        returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
        return next
      })
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  // after a dialog closes (and has left the DOM), focus goes back where it was
  useEffect(() => {
    if (open) {
      wasOpen.current = true
      return
    }
    if (!wasOpen.current) return
    wasOpen.current = false
    if (returnTo.current?.isConnected) returnTo.current.focus()
    returnTo.current = null
  }, [open])

  const close = useCallback(() => setOpen(null), [])
  return (
    <Suspense fallback={null}>
      {open === 'palette' && <Palette onClose={close} />}
      {open === 'keys' && <CheatSheet onClose={close} />}
    </Suspense>
  )
}
