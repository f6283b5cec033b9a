/**
 * Typing and read receipts: hub signals, never stored (so not server state for the query cache). Received ones
 * show who is typing and how far the customer has read; sent ones tell the customer the agent types and has read.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { hub } from '../../lib/hub.ts'

interface From {
  kind: 'visitor' | 'customer' | 'console' | 'service'
  id: string
}

/** A typing indicator whose `stop` was lost (the sender's tab closed) fades after this. */
const TYPING_FADE_MS = 8000
/** While the agent keeps typing, `start` is repeated at most this often. */
const TYPING_REPEAT_MS = 3000

export function useSignals(sessionId: string) {
  const [typing, setTyping] = useState<From['kind'] | null>(null)
  const [readUpTo, setReadUpTo] = useState<string | null>(null)
  const fade = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(() => {
    setTyping(null)
    setReadUpTo(null)
    const stop = hub.onFrame((frame) => {
      if (frame.session_id !== sessionId) return
      const from = (frame.data?.from ?? null) as From | null
      if (frame.type === 'typing') {
        if (fade.current) clearTimeout(fade.current)
        if (frame.data?.state === 'start') {
          setTyping(from?.kind ?? 'customer')
          fade.current = setTimeout(() => setTyping(null), TYPING_FADE_MS)
        } else setTyping(null)
      } else if (
        frame.type === 'read' &&
        from &&
        from.kind !== 'console' &&
        typeof frame.data?.message_id === 'string'
      ) {
        setReadUpTo(frame.data.message_id)
      } else if (frame.type === 'text-message') {
        setTyping(null) // the customer sent what they typed
      }
    })
    return () => {
      stop()
      if (fade.current) clearTimeout(fade.current)
    }
  }, [sessionId])

  const lastStart = useRef(0)
  const sendTyping = useCallback(
    (state: 'start' | 'stop') => {
      const now = Date.now()
      if (state === 'start' && now - lastStart.current < TYPING_REPEAT_MS) return
      lastStart.current = state === 'start' ? now : 0
      hub.send({ type: 'typing', data: { state }, session_id: sessionId })
    },
    [sessionId],
  )

  const lastRead = useRef<string | null>(null)
  const sendRead = useCallback(
    (messageId: string) => {
      if (lastRead.current === messageId) return
      if (hub.send({ type: 'read', data: { message_id: messageId }, session_id: sessionId }))
        lastRead.current = messageId
    },
    [sessionId],
  )

  return { typing, readUpTo, sendTyping, sendRead }
}
