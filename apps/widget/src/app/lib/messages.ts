/**
 * The conversation's messages as the visitor sees them, keyed on `seq` (the message's position in its session):
 * a message already held — by id or by seq — is never added twice, and each lands at its place, so a resume that
 * overlaps what live frames brought, or a frame that comes late, leaves neither a gap nor a duplicate. Pure.
 */
export interface ChatMessage {
  id: string
  seq: number
  sender: 'customer' | 'agent' | 'ai' | 'system'
  kind: string
  content: string
  metadata: Record<string, unknown>
  created_at: string
}

/** The hub's message frame data (`text-message`, `agent-message`, `ai-response`, `system`). */
export interface MessageFrameData {
  message_id: string
  seq: number
  sender: string
  kind?: string
  content: string
  metadata?: Record<string, unknown> | null
  visibility?: string
  created_at: string
}

export const MESSAGE_TYPES: ReadonlySet<string> = new Set(['text-message', 'agent-message', 'ai-response', 'system'])

const SENDERS = new Set(['customer', 'agent', 'ai', 'system'])

export function fromFrame(type: string, d: MessageFrameData): ChatMessage | null {
  if (typeof d?.message_id !== 'string' || typeof d.seq !== 'number') return null
  if (d.visibility && d.visibility !== 'public') return null
  const byType =
    type === 'agent-message' ? 'agent' : type === 'ai-response' ? 'ai' : type === 'system' ? 'system' : 'customer'
  const sender = (SENDERS.has(d.sender) ? d.sender : byType) as ChatMessage['sender']
  return {
    id: d.message_id,
    seq: d.seq,
    sender,
    kind: d.kind ?? 'text',
    content: typeof d.content === 'string' ? d.content : '',
    metadata: d.metadata && typeof d.metadata === 'object' ? d.metadata : {},
    created_at: d.created_at,
  }
}

/** `list` with `m` at its place by seq; the same list when `m` (its id or its seq) is already there. */
export function insert(list: readonly ChatMessage[], m: ChatMessage): ChatMessage[] {
  let i = list.length
  while (i > 0 && list[i - 1]!.seq > m.seq) i--
  const before = list[i - 1]
  if (before && (before.seq === m.seq || before.id === m.id)) return list as ChatMessage[]
  if (list.some((x) => x.id === m.id)) return list as ChatMessage[]
  return [...list.slice(0, i), m, ...list.slice(i)]
}

/** The newest message: what a rejoin names as `after`. */
export const last = (list: readonly ChatMessage[]) => list[list.length - 1] ?? null
