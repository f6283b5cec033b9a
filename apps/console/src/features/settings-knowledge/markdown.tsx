/**
 * The editor's live preview: a small subset of Markdown (headings, paragraphs, lists, quotes, fenced code, bold,
 * italic, inline code, links) rendered as React elements — never as HTML, so whatever an author types (`<img
 * onerror>`, `<script>`) is text. Links keep only `http(s):`, `mailto:` or a relative address, as the help centre's
 * renderer does (services/ai-orchestrator src/domain/help-markdown.ts); any other link, and every image, stays text.
 * The help centre page is the exact rendering; this is a preview.
 */
import type { ReactNode } from 'react'

/** A link target the preview may use: http(s), mailto or relative, with what browsers ignore removed first. */
export function safeHref(raw: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers drop control characters and spaces in a scheme
  const href = raw.trim().replace(/[\u0000-\u0020\u007f]/g, '')
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)
  if (!scheme) return href.startsWith('//') ? null : href
  return ['http', 'https', 'mailto'].includes((scheme[1] ?? '').toLowerCase()) ? href : null
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(!?\[[^\]]*\]\([^)\s]*\))/

function inline(text: string, key = 0): ReactNode[] {
  const out: ReactNode[] = []
  let rest = text
  let k = key
  while (rest) {
    const m = INLINE.exec(rest)
    if (!m) {
      out.push(rest)
      break
    }
    if (m.index > 0) out.push(rest.slice(0, m.index))
    const token = m[0]
    k += 1
    if (m[1]) out.push(<code key={k}>{token.slice(1, -1)}</code>)
    else if (m[2]) out.push(<strong key={k}>{inline(token.slice(2, -2), k * 100)}</strong>)
    else if (m[3]) out.push(<em key={k}>{inline(token.slice(1, -1), k * 100)}</em>)
    else {
      const link = /^(!?)\[([^\]]*)\]\(([^)\s]*)\)$/.exec(token)
      const href = link && !link[1] ? safeHref(link[3] ?? '') : null
      if (link && href !== null) {
        const outside = /^https?:/i.test(href)
        out.push(
          <a key={k} href={href} rel={outside ? 'nofollow noopener noreferrer' : undefined}>
            {inline(link[2] ?? '', k * 100)}
          </a>,
        )
      } else out.push(token)
    }
    rest = rest.slice(m.index + token.length)
  }
  return out
}

export function MarkdownPreview({ source }: { source: string }) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n')
  const blocks: ReactNode[] = []
  const at = (n: number): string => lines[n] ?? ''
  let i = 0
  while (i < lines.length) {
    const line = at(i)
    const key = blocks.length
    if (!line.trim()) {
      i += 1
    } else if (/^```/.test(line)) {
      const body: string[] = []
      i += 1
      while (i < lines.length && !/^```/.test(at(i))) body.push(at(i++))
      i += 1
      blocks.push(
        <pre key={key}>
          <code>{body.join('\n')}</code>
        </pre>,
      )
    } else if (/^#{1,6}\s/.test(line)) {
      const level = Math.min(6, (/^#+/.exec(line)?.[0].length ?? 1) + 1)
      const Tag = `h${level}` as 'h2'
      blocks.push(<Tag key={key}>{inline(line.replace(/^#+\s+/, '').replace(/\s+#+\s*$/, ''))}</Tag>)
      i += 1
    } else if (/^\s*[-*+]\s/.test(line) || /^\s*\d+[.)]\s/.test(line)) {
      const ordered = /^\s*\d/.test(line)
      const items: ReactNode[] = []
      const item = ordered ? /^\s*\d+[.)]\s+/ : /^\s*[-*+]\s+/
      while (i < lines.length && item.test(at(i))) {
        items.push(<li key={items.length}>{inline(at(i).replace(item, ''))}</li>)
        i += 1
      }
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>)
    } else if (/^>/.test(line)) {
      const body: string[] = []
      while (i < lines.length && /^>/.test(at(i))) body.push(at(i++).replace(/^>\s?/, ''))
      blocks.push(<blockquote key={key}>{inline(body.join(' '))}</blockquote>)
    } else {
      const body: string[] = []
      while (i < lines.length && at(i).trim() && !/^(```|#{1,6}\s|>|\s*[-*+]\s|\s*\d+[.)]\s)/.test(at(i))) {
        body.push(at(i++).trim())
      }
      blocks.push(<p key={key}>{inline(body.join(' '))}</p>)
    }
  }
  return <>{blocks}</>
}
