import type { Static } from '@sinclair/typebox'
import { ConversationEvents } from '@switchboard/contracts'
import { type ConsumerDef, nowIso, type Scope, type ServiceClient, systemCaller } from '@switchboard/platform'
import { answerQuery } from '../commands/query.commands.ts'
import type { AiService } from '../context.ts'
import { claimReply, findReply, settleReply } from '../db/replies.repository.ts'
import { HANDOFF_REPLY } from '../domain/answering.ts'
import { answerStream } from './answer-stream.ts'

export const CONVERSATION_REPLIES_CONSUMER = 'ai-conversation-replies'

type MessageFacts = Static<typeof ConversationEvents.messageCreated.data>

/** A customer's message in a session no human handles (active, no agent): the AI's to answer. */
export const aiAnswers = (m: MessageFacts) =>
  m.sender === 'customer' && m.agent_id === null && m.session_status === 'active' && m.kind === 'text'

/**
 * AI replies in conversations (issue 11 §6), when AI_REPLIES_ENABLED. A customer message in a session no human handles is answered by the
 * orchestrator and the answer written back through conversations' internal API as an `ai` message (the widget sees
 * it through the hub). A request for a person, or an answer below `min_confidence`, hands the session to a human
 * instead (`/api/session-transfer/to-human`: the waiting queue). While the LLM writes, its answer is streamed to the
 * session's sockets as partial `ai-response` frames (answer-stream.ts). One `ai_replies` row per message, claimed
 * before answering and settled after: a redelivered event is recognised and not answered twice — and when an attempt
 * died between the two, the next one looks for the reply in the session (`metadata.in_reply_to`) before answering.
 */
export const conversationReplies: ConsumerDef<AiService> = {
  durable: CONVERSATION_REPLIES_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: [ConversationEvents.messageCreated.type],
  idempotency: 'handler',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  async handle(svc, { envelope }) {
    const m = envelope.data as MessageFacts
    const conversations = svc.conversations
    if (!svc.config.replies_enabled || !conversations || !aiAnswers(m)) return
    const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    const row = { message_id: m.message_id, session_id: m.session_id, ...scope, query_id: null, created_at: nowIso() }
    if (!(await claimReply(svc.db, { ...row, outcome: 'pending' }))) {
      const earlier = await findReply(svc.db, m.message_id)
      if (earlier?.outcome !== 'pending') return
      // an attempt died between claiming and settling: its answer may be written already
      const written = await writtenReply(conversations, scope, m)
      if (written) {
        if (written.metadata?.handover === true) await handOver(conversations, scope, m.session_id, 'AI not confident')
        await settleReply(svc.db, m.message_id, written.metadata?.handover ? 'handed_over' : 'answered', null)
        return
      }
    }
    const stream = answerStream(svc, scope, m)
    const answer = await answerQuery(
      svc,
      systemCaller(scope),
      { query: m.content, session_id: m.session_id },
      { onDelta: stream.onDelta },
    )
    await stream.end()
    const handover = answer.strategy === 'transfer' || answer.confidence < svc.config.min_confidence
    const metadata = {
      in_reply_to: m.message_id,
      query_id: answer.query_id,
      strategy: answer.strategy,
      confidence: answer.confidence,
      handover,
      sources: answer.sources.map((s) => ({ document_id: s.document_id, title: s.title, source: s.source })),
    }
    const posted = await conversations.call(
      'POST',
      `/internal/sessions/${encodeURIComponent(m.session_id)}/messages`,
      { sender: 'ai', content: handover ? HANDOFF_REPLY : answer.content, metadata },
      { scope },
    )
    // 404/409: the session went away or closed meanwhile; nothing to answer any more
    if (posted.status >= 500) throw new Error(`conversations answered ${posted.status} to the AI reply`)
    if (handover && posted.status < 300) {
      await handOver(
        conversations,
        scope,
        m.session_id,
        answer.strategy === 'transfer' ? 'customer asked for a human' : 'AI not confident',
      )
    }
    const outcome = posted.status >= 300 ? 'skipped' : handover ? 'handed_over' : 'answered'
    await settleReply(svc.db, m.message_id, outcome, answer.query_id)
  },
}

/** The AI message already written in reply to `m`, if one is (its metadata names the message it answers). */
async function writtenReply(conversations: ServiceClient, scope: Scope, m: MessageFacts) {
  const listed = await conversations.call<{ items: Array<{ sender: string; metadata?: Record<string, unknown> }> }>(
    'GET',
    `/internal/sessions/${encodeURIComponent(m.session_id)}/messages?limit=50`,
    undefined,
    { scope },
  )
  if (listed.status >= 500) throw new Error(`conversations answered ${listed.status} to the messages read`)
  return listed.body?.items?.find((x) => x.sender === 'ai' && x.metadata?.in_reply_to === m.message_id)
}

/** To the waiting queue (to-human is idempotent: a session already waiting stays as it is). */
async function handOver(conversations: ServiceClient, scope: Scope, session_id: string, reason: string) {
  const moved = await conversations.call('POST', '/api/session-transfer/to-human', { session_id, reason }, { scope })
  if (moved.status >= 500) throw new Error(`conversations answered ${moved.status} to the hand-over`)
}
