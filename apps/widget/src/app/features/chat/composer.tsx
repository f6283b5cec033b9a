/**
 * The composer: a labelled text box ("Message"), "Send", and — once the conversation exists — a file to attach
 * (uploaded by a lazily loaded module, its refusals in words). Enter sends, Shift+Enter breaks the line. Typing
 * tells the agent (`typing` start, repeated while it lasts; stop on send or when emptied).
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { useI18n } from '../../lib/i18n.ts'
import type { Visitor } from '../../lib/storage.ts'
import { useChat } from '../../lib/use-chat.ts'

/** a typing start is repeated at most this often while the visitor types */
const TYPING_EVERY_MS = 3000

export function Composer({ visitor, connect }: { visitor: Visitor | null; connect(): void }) {
  const { t } = useI18n()
  const [state, store] = useChat()
  const [text, setText] = useState('')
  const [uploading, setUploading] = useState<string | null>(null)
  const [uploadError, setUploadError] = useState<string | null>(null)
  const box = useRef<HTMLTextAreaElement>(null)
  const typingAt = useRef(0)

  // the loader opened the widget (or the frame is its own page): the composer has the focus
  useEffect(() => {
    if (state.open) box.current?.focus()
  }, [state.open])

  const typing = (value: string) => {
    const now = Date.now()
    if (!value) {
      if (typingAt.current) store.typing('stop')
      typingAt.current = 0
    } else if (now - typingAt.current > TYPING_EVERY_MS) {
      typingAt.current = now
      store.typing('start')
    }
  }

  const submit = (event?: Event) => {
    event?.preventDefault()
    const content = text.trim()
    if (!content) return
    if (typingAt.current) store.typing('stop')
    typingAt.current = 0
    const first = state.sessionId === null && state.pending.length === 0
    // the pre-chat form's answers travel with the first message (conversations keeps them as its metadata)
    store.send(content, first && visitor ? { visitor } : {})
    connect()
    setText('')
  }

  const attach = async (file: File) => {
    setUploadError(null)
    setUploading(file.name)
    try {
      const { uploadAndSend } = await import('../attachments/upload.ts')
      await uploadAndSend(store, file)
    } catch (err) {
      const { describeUploadError } = await import('../attachments/upload.ts').catch(() => ({
        describeUploadError: () => t('error.network'),
      }))
      setUploadError(describeUploadError(err, t))
    } finally {
      setUploading(null)
    }
  }

  return (
    <form class="composer" onSubmit={submit}>
      {uploadError && (
        <p class="upload-error" role="alert">
          {uploadError}
        </p>
      )}
      {uploading && (
        <p class="uploading" role="status">
          {t('upload.sending', { name: uploading })}
        </p>
      )}
      <div class="row">
        <label class="sr-only" for="composer-text">
          {t('composer.label')}
        </label>
        <textarea
          id="composer-text"
          ref={box}
          rows={1}
          value={text}
          placeholder={t('composer.label')}
          onInput={(e) => {
            const value = e.currentTarget.value
            setText(value)
            typing(value)
          }}
          onBlur={() => {
            if (typingAt.current) store.typing('stop')
            typingAt.current = 0
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return
            e.preventDefault()
            submit()
          }}
        />
        {state.sessionId && (
          <label class="attach" title={t('composer.attach')}>
            <span class="sr-only">{t('composer.attach')}</span>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M21 11l-8.5 8.5a5 5 0 01-7-7L14 4a3.5 3.5 0 015 5l-8.5 8.5a2 2 0 01-3-3L15 7"
                fill="none"
                stroke="currentColor"
                stroke-width="2"
                stroke-linecap="round"
              />
            </svg>
            <input
              type="file"
              class="sr-only"
              disabled={uploading !== null}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0]
                e.currentTarget.value = ''
                if (file) void attach(file)
              }}
            />
          </label>
        )}
        <button type="submit" class="primary" disabled={!text.trim()}>
          {t('composer.send')}
        </button>
      </div>
    </form>
  )
}
