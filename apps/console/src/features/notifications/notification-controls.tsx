/**
 * Notifications in the header: the unread count in the tab title, "Enable sound" (a tone on each new customer
 * message, only after that click: browsers block autoplay), "Enable notifications" (the Notification API, asked
 * only on that click), and a reminder every REMINDER_MS while the waiting queue is not empty.
 */
import { useEffect, useRef, useState } from 'react'
import { useAuth } from '../../lib/auth.tsx'
import type { MessageFrameData } from '../../lib/hub.ts'
import { useHubFrames } from '../../lib/hub-hooks.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { playTone, soundEnabled, unlockSound } from './tone.ts'
import { useUnreadTitle } from './use-unread-title.ts'
import { useWaitingQueue } from './use-waiting-queue.ts'
import './messages.ts'
import { REMINDER_MS } from './reminder.ts'
import './notifications.css'

type Permission = NotificationPermission | 'unsupported'
const initialPermission = (): Permission =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission

export function NotificationControls() {
  const { t } = useI18n()
  const { user } = useAuth()
  const [sound, setSound] = useState(soundEnabled)
  const [permission, setPermission] = useState<Permission>(initialPermission)
  useUnreadTitle(t('shell.brand'))
  const waiting = useWaitingQueue()

  const alert = (body: string) => {
    playTone()
    if (permission === 'granted' && document.visibilityState !== 'visible') new Notification(t('shell.brand'), { body })
  }

  useHubFrames((frame) => {
    if (frame.type !== 'text-message') return
    const data = frame.data as Partial<MessageFrameData>
    // a message (not a streamed part) from someone else: the customer
    if (!data?.message_id || data.sender === 'system' || data.sender_id === user?.id) return
    alert(
      data.content ? `${t('notifications.newMessage')}: ${data.content.slice(0, 80)}` : t('notifications.newMessage'),
    )
  })

  // the interval lives as long as the queue is not empty; it calls the newest render's alert
  const remind = useRef(() => {})
  remind.current = () => alert(t('notifications.waiting'))
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
