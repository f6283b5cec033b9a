import { createContext } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import type { ChatState, ChatStore } from './chat-store.ts'

export const Chat = createContext<ChatStore | null>(null)

/** The store and its state; the component renders again on every change (the app is small). */
export function useChat(): [ChatState, ChatStore] {
  const store = useContext(Chat)!
  const [state, setState] = useState(store.state)
  useEffect(() => {
    setState(store.state)
    return store.subscribe(() => setState(store.state))
  }, [store])
  return [state, store]
}
