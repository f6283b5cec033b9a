import type { Message } from '../schemas/sessions.schemas.ts'

export interface MessageLimits {
  /** content, UTF-8 bytes */
  max_bytes: number
  /** metadata as JSON, UTF-8 bytes */
  max_metadata_bytes: number
}

export type MessageProblem =
  | { problem: 'content_too_large'; limit: number }
  | { problem: 'metadata_too_large'; limit: number }
  | { problem: 'kind_not_for_sender'; kind: Message['kind']; sender: Message['sender'] }

/**
 * What is wrong with a message before it touches a session, if anything. The limit is in bytes, not characters:
 * the schema's character bound lets a body through, this is the rule (16 KiB by default).
 * `system` messages are the service's own voice (joins, hand-overs, closing): nobody else writes that kind.
 */
export function messageProblem(
  limits: MessageLimits,
  m: { sender: Message['sender']; kind?: Message['kind']; content: string; metadata?: Record<string, unknown> },
): MessageProblem | undefined {
  if (Buffer.byteLength(m.content, 'utf8') > limits.max_bytes) {
    return { problem: 'content_too_large', limit: limits.max_bytes }
  }
  if (m.metadata && Buffer.byteLength(JSON.stringify(m.metadata), 'utf8') > limits.max_metadata_bytes) {
    return { problem: 'metadata_too_large', limit: limits.max_metadata_bytes }
  }
  if (m.kind === 'system' && m.sender !== 'system') {
    return { problem: 'kind_not_for_sender', kind: m.kind, sender: m.sender }
  }
  return undefined
}

/**
 * A subject for a session opened by a customer's first message: its first line, at most `max` characters. Counted
 * and cut by code points (like sanitizeFilename), so an emoji is never split into an unpaired surrogate.
 */
export function subjectFrom(content: string, max = 120): string {
  const line = (content.trim().split(/\r?\n/, 1)[0] ?? '').trim()
  const chars = [...line]
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`
}
