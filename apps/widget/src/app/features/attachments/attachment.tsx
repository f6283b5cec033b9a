/**
 * A message carrying an upload: an image shown, any other file as a link to save it. The bytes need the visitor
 * credential in a header (never in a URL), so they are fetched and shown through an object URL.
 */
import { useEffect, useState } from 'preact/hooks'
import { useI18n } from '../../lib/i18n.ts'
import type { ChatMessage } from '../../lib/messages.ts'
import { useChat } from '../../lib/use-chat.ts'

const cache = new Map<string, Promise<string>>()

function objectUrl(url: string, credential: string): Promise<string> {
  let p = cache.get(url)
  if (!p) {
    p = fetch(url, { headers: { 'x-visitor-credential': credential }, credentials: 'omit' }).then(async (res) => {
      if (!res.ok) throw new Error(String(res.status))
      return URL.createObjectURL(await res.blob())
    })
    p.catch(() => cache.delete(url))
    cache.set(url, p)
  }
  return p
}

export function Attachment({ message }: { message: ChatMessage }) {
  const { t } = useI18n()
  const [, store] = useChat()
  const meta = message.metadata
  const name = String(meta.filename ?? message.content)
  const url = typeof meta.url === 'string' && meta.url.startsWith('/') ? meta.url : `/uploads/${String(meta.upload_id)}`
  const image = String(meta.content_type ?? '').startsWith('image/')
  const [src, setSrc] = useState<string | null>(null)

  useEffect(() => {
    const credential = store.visitorCredential
    if (!credential) return
    let live = true
    objectUrl(url, credential).then(
      (u) => live && setSrc(u),
      () => {},
    )
    return () => {
      live = false
    }
  }, [url, store])

  const label = t('attachment.name', { name })
  if (!src) return <p class="text file">{label}</p>
  return (
    <p class="text file">
      {image && <img src={src} alt={label} />}
      <a href={src} download={name}>
        {label}
      </a>
    </p>
  )
}
