/**
 * Keyboard plumbing shared by features: which targets take typed text (single-key bindings never fire there), and
 * a tiny command channel so one feature (the palette) can ask another (the inbox) to act without importing it.
 * No binding uses Alt/Option+letter: on many layouts that combination types a character.
 */
import { useEffect, useRef } from 'react'

const TEXT_FIELD = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'

/** True when a key pressed on `target` types text (so a single-key shortcut must not fire). */
export function isTextField(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(TEXT_FIELD) !== null
}

export interface AppCommands {
  /** show an inbox tab: 'mine' | 'unassigned' | 'waiting' | 'all' */
  'inbox.view': string
}

const channel = new EventTarget()

export function runCommand<K extends keyof AppCommands>(name: K, arg: AppCommands[K]): void {
  channel.dispatchEvent(new CustomEvent(name, { detail: arg }))
}

/** Handle a command while the calling component is mounted. */
export function useCommand<K extends keyof AppCommands>(name: K, handler: (arg: AppCommands[K]) => void): void {
  const latest = useRef(handler)
  latest.current = handler
  useEffect(() => {
    const listener = (event: Event) => latest.current((event as CustomEvent<AppCommands[K]>).detail)
    channel.addEventListener(name, listener)
    return () => channel.removeEventListener(name, listener)
  }, [name])
}
