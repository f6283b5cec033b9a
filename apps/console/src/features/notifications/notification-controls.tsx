/**
 * Notifications in the header: the unread count in the tab title, "Enable sound" (a tone on each new customer
 * message, only after that click: browsers block autoplay), "Enable notifications" (the Notification API, asked
 * only on that click; when granted, one notification per new customer message while the agent is away — tab hidden
 * or window unfocused — titled with the customer's name, a click opens the conversation), and a reminder every
 * REMINDER_MS while the waiting queue is not empty.
 */
import { useEffect, useRef, useState } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import type { MessageFrameData } from '../../lib/hub.ts'
import { useHubFrames } from '../../lib/hub-hooks.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { navigate } from '../../lib/router.tsx'
import { cachedCustomerName } from './inbox-rows.ts'
import { playTone, soundEnabled, unlockSound } from './tone.ts'
import { useUnreadTitle } from './use-unread-title.ts'
import { useWaitingQueue } from './use-waiting-queue.ts'
import './messages.ts'
import { REMINDER_MS } from './reminder.ts'
import './notifications.css'

type Permission = NotificationPermission | 'unsupported'
const initialPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission

/** The agent is not looking: the tab is hidden, or another window (or app) has the focus. */
const away = () => document.visibilityState !== 'visible' || !document.hasFocus()

/** A message seen once: a frame may come twice (a joined conversation that is also assigned, a resume's overlap). */
const SEEN_MAX = 500

export function NotificationControls() {
  const { t } = useI18n()
  const { user } = useAuth()
  const [sound, setSound] = useState(soundEnabled)
  const [permission, setPermission] = useState<Permission>(initialPermission)
  useUnreadTitle(t('shell.brand'))
  const waiting = useWaitingQueue()

  const seen = useRef(new Set<string>())

  /** A tone (once enabled) and, when granted and the agent is away, a system notification. */
  const alert = (title: string, body: string, sessionId?: string) => {
    playTone()
    if (permission !== 'granted' || !away()) return
    // one per conversation on screen at a time: a newer message replaces the older one's notification
    const n = new Notification(title, { body, ...(sessionId ? { tag: `conversation-${sessionId}` } : {}) })
    n.onclick = () => {
      window.focus()
      if (sessionId) navigate(`/conversations/${encodeURIComponent(sessionId)}`)
      n.close()
    }
  }

  useHubFrames((frame) => {
    if (frame.type !== 'text-message') return
    const data = frame.data as Partial<MessageFrameData>
    // a message (not a streamed part) from someone else: the customer
    if (!data?.message_id || data.sender === 'system' || data.sender_id === user?.id) return
    if (seen.current.has(data.message_id)) return
    seen.current.add(data.message_id)
    if (seen.current.size > SEEN_MAX) seen.current.delete(seen.current.values().next().value as string)
    const name = cachedCustomerName(frame.session_id)
    alert(
      name ? t('notifications.messageFrom', { name }) : t('notifications.newMessage'),
      data.content ? data.content.slice(0, 160) : t('notifications.newMessage'),
      frame.session_id,
    )
  })

  // the interval lives as long as the queue is not empty; it calls the newest render's alert
  const remind = useRef(() => {})
  remind.current = () => alert(t('shell.brand'), t('notifications.waiting'))
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(() => remind.current(), REMINDER_MS)
    return () => clearInterval(timer)
  }, [waiting])

  return (
    <fieldset className="header-controls">
      <legend className="visually-hidden">{t('notifications.label')}</legend>
      <button
        type="button"
        aria-pressed={sound}
        onClick={() => {
          unlockSound()
          setSound(true)
        }}
      >
        {t('notifications.enableSound')}
      </button>
      {permission !== 'unsupported' && (
        <button
          type="button"
          aria-pressed={permission === 'granted'}
          disabled={permission === 'denied'}
          title={permission === 'denied' ? t('notifications.notificationsBlocked') : undefined}
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          {t('notifications.enableNotifications')}
        </button>
      )}
    </fieldset>
  )
}
