/** The records this feature reads, as conversations and the hub give them (services/conversations/README.md). */

export type SessionStatus = 'active' | 'waiting_human' | 'transferred' | 'closed'

export interface Session {
  id: string
  status: SessionStatus
  channel: string
  subject: string | null
  customer_id: string | null
  visitor_id: string | null
  agent_id: string | null
  ticket_id: string | null
  priority: string
  message_count: number
  started_at: string
  last_message_at: string | null
  ended_at: string | null
  queue_position?: number | null
  estimated_wait_seconds?: number | null
}

export type Sender = 'customer' | 'agent' | 'ai' | 'system'

export interface Message {
  id: string
  session_id: string
  sender: Sender
  sender_id: string | null
  kind: string
  content: string
  metadata: Record<string, unknown> | null
  created_at: string
  /** `internal`: a note, staff only — it never reaches the customer */
  visibility?: 'public' | 'internal'
}

export const isNote = (m: Pick<Message, 'visibility'>) => m.visibility === 'internal'

/** One page of history, in posting order (oldest first). */
export interface MessagePage {
  count: number
  items: Message[]
}

/** identity's agent record, with the load conversations' events give it. */
export interface AgentRecord {
  id: string
  user_id: string
  name: string
  status: string
  max_concurrent: number
  current_load: number
}

export interface Upload {
  id: string
  filename: string
  content_type: string
  size: number
  url: string
}
