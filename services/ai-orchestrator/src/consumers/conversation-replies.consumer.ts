import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Static } from '@sinclair/typebox'
import { ConversationEvents } from '@switchboard/contracts'
import {
  type ConsumedEvent,
  type ConsumerDef,
  type ConversationsClient,
  nowIso,
  on,
  type Scope,
  systemCaller,
} from '@switchboard/platform'
import { answerQuery } from '../commands/query.commands.ts'
import type { AiService } from '../context.ts'
import { claimReply, releaseReply, renewReply, settleReply } from '../db/replies.repository.ts'
import { HANDOFF_REPLY } from '../domain/answering.ts'
import { answerStream } from './answer-stream.ts'

export const CONVERSATION_REPLIES_CONSUMER = 'ai-conversation-replies'

type MessageFacts = Static<typeof ConversationEvents.messageCreated.data>

/**
 * A customer's public message in a session no human handles (active, no agent): the AI's to answer. An internal
 * note (staff only) is never its input, whoever wrote it.
 */
export const aiAnswers = (m: MessageFacts) =>
  m.sender === 'customer' &&
  (m.visibility ?? 'public') === 'public' &&
  m.agent_id === null &&
  m.session_status === 'active' &&
  m.kind === 'text'

/**
 * AI replies in conversations (issue 11 §6), when AI_REPLIES_ENABLED. A customer message in a session no human handles is answered by the
 * orchestrator and the answer written back through conversations' internal API as an `ai` message (the widget sees
 * it through the hub). A request for a person, or an answer below `min_confidence`, hands the session to a human
 * instead (`/api/session-transfer/to-human`: the waiting queue). While the LLM writes, its answer is streamed to the
 * session's sockets as partial `ai-response` frames (answer-stream.ts).
 *
 * Exactly one answer per message, none lost (README "AI replies"): one `ai_replies` row per message, claimed with a
 * lease before answering (`claimed_by`, `claimed_until` = now + AI_REPLY_LEASE_MS), renewed while the attempt works,
 * checked once more right before the answer is written, settled by its holder only. A delivery of a message whose
 * lease is live (a redelivery while the first attempt still works) waits here — the bus keeps the delivery alive —
 * until that attempt settles (then it acks, answering nothing) or its lease runs out (it died: this attempt takes
 * the message over, atomically, and first looks for the dead one's reply in the session, `metadata.in_reply_to`).
 */
export const conversationReplies: ConsumerDef<AiService> = {
  durable: CONVERSATION_REPLIES_CONSUMER,
  stream: 'CONVERSATIONS',
  subjects: [ConversationEvents.messageCreated.type],
  idempotency: 'handler',
  options: (svc) => ({ maxDeliver: svc.config.consumer_max_deliver }),
  handlers: [on(ConversationEvents.messageCreated, (event, svc) => reply(event, svc))],
}

/** The AI's answer to one message, once (see conversationReplies). */
async function reply({ envelope, data: m }: ConsumedEvent<MessageFacts>, svc: AiService): Promise<void> {
  const conversations = svc.conversations
  if (!svc.config.replies_enabled || !conversations || !aiAnswers(m)) return
  const scope = { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
  const row = { message_id: m.message_id, session_id: m.session_id, ...scope, created_at: nowIso() }
  const holder = `${hostname()}/${process.pid}/${randomUUID()}`
  const claim = await claimOrWait(svc, row, holder)
  if (!claim) return
  const lease = keepLease(svc, m.message_id, holder)
  try {
    if (claim.kind === 'taken_over') {
      // the attempt that held it died (or failed after writing): its answer may be written already
      const written = await writtenReply(conversations, scope, m)
      if (written) {
        const handover = written.metadata?.handover === true
        if (handover) await handOver(conversations, scope, m.session_id, 'AI not confident')
        await settle(svc, m.message_id, holder, handover ? 'handed_over' : 'answered', null)
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
    // the fence: an attempt that lost its lease (stalled past it, taken over) writes nothing; the taker answers
    if (!(await lease.stillHeld())) {
      svc.log.warn({ message_id: m.message_id, holder }, 'AI reply lease lost before writing: left to its taker')
      return
    }
    const handover = answer.strategy === 'transfer' || answer.confidence < svc.config.min_confidence
    const metadata = {
      in_reply_to: m.message_id,
      query_id: answer.query_id,
      strategy: answer.strategy,
      confidence: answer.confidence,
      handover,
      sources: answer.sources.map((s) => ({ document_id: s.document_id, title: s.title, source: s.source })),
    }
    const posted = await conversations.postMessage(
      m.session_id,
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
    await settle(svc, m.message_id, holder, outcome, answer.query_id)
  } catch (err) {
    // failed, not dead: the redelivery (after the bus's delay) takes the message over without waiting the lease out
    await releaseReply(svc.db, m.message_id, holder).catch(() => undefined)
    throw err
  } finally {
    lease.stop()
  }
}

/**
 * This delivery's claim on the message: claimed or taken over (answer it), or undefined when it is settled already
 * (ack, answer nothing). While another attempt holds a live lease, polls until that one settles or its lease runs
 * out; past twice the lease of waiting (a holder that keeps renewing, yet never settles) it throws, so the message
 * is delivered again later — never answered while held.
 */
async function claimOrWait(svc: AiService, row: Parameters<typeof claimReply>[1], holder: string) {
  const leaseMs = svc.config.reply_lease_ms
  const giveUpAt = Date.now() + 2 * leaseMs
  const pollMs = Math.min(1000, Math.max(25, Math.floor(leaseMs / 20)))
  for (;;) {
    const claim = await claimReply(svc.db, row, holder, leaseMs)
    if (claim.kind === 'claimed' || claim.kind === 'taken_over') return claim
    if (claim.kind === 'settled') return undefined
    const now = Date.now()
    if (now >= giveUpAt) {
      throw new Error(
        `AI reply to ${row.message_id} is held by ${claim.by ?? 'another attempt'}; delivered again later`,
      )
    }
    await sleep(Math.max(10, Math.min(pollMs, claim.until - now + 5)))
  }
}

/**
 * Renews the lease every third of it while the attempt works; `stillHeld` renews once more and says whether this
 * attempt holds the message still (a failed renewal in the background is only logged: `stillHeld` decides).
 */
function keepLease(svc: AiService, message_id: string, holder: string) {
  const leaseMs = svc.config.reply_lease_ms
  const renew = () => renewReply(svc.db, message_id, holder, leaseMs)
  const timer = setInterval(
    () => {
      renew().then(
        (held) => {
          if (!held) svc.log.warn({ message_id, holder }, 'AI reply lease lost while answering')
        },
        (err) => svc.log.warn({ err, message_id }, 'AI reply lease not renewed'),
      )
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  )
  timer.unref()
  return { stillHeld: renew, stop: () => clearInterval(timer) }
}

/** Settles as the holder; a holder whose lease was taken over meanwhile settles nothing (its taker does). */
async function settle(svc: AiService, message_id: string, holder: string, outcome: string, query_id: string | null) {
  if (!(await settleReply(svc.db, message_id, holder, outcome, query_id))) {
    svc.log.warn({ message_id, holder, outcome }, 'AI reply settled by another attempt: this one no longer held it')
  }
}

/** The AI message already written in reply to `m`, if one is (its metadata names the message it answers). */
async function writtenReply(conversations: ConversationsClient, scope: Scope, m: MessageFacts) {
  const listed = await conversations.messages(m.session_id, { limit: 50 }, { scope })
  if (listed.status >= 500) throw new Error(`conversations answered ${listed.status} to the messages read`)
  const items = listed.ok ? listed.body.items : []
  return items.find((x) => x.sender === 'ai' && x.metadata?.in_reply_to === m.message_id)
}

/** To the waiting queue (to-human is idempotent: a session already waiting stays as it is). */
async function handOver(conversations: ConversationsClient, scope: Scope, session_id: string, reason: string) {
  const moved = await conversations.toHuman({ session_id, reason }, { scope })
  if (moved.status >= 500) throw new Error(`conversations answered ${moved.status} to the hand-over`)
}
