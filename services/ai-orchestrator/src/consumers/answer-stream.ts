import { RealtimeSignalEvents } from '@switchboard/contracts'
import type { Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'

const AI_SENDER = (scope: Scope) => ({ actor: { user_id: 'ai-orchestrator', kind: 'service' }, scope })

/** Pieces of an answer are sent at most this often (ms) — or sooner once this many characters wait. */
const EVERY_MS = 80
const CHARS = 120

/**
 * The LLM's answer to a conversation streamed to its sockets while it is written: `ai-response` signals on the hub's
 * stream (every hub replica delivers them to its sockets of the session, like typing indicators), each carrying the
 * text so far (`text`) and what is new (`delta`), `partial: true`, `in_reply_to` the customer's message. Coalesced,
 * so a token-by-token stream is a few frames a second; signals are relayed, never stored — the answer itself is the
 * `ai` message written afterwards, and published with `svc.publish` (checked against the hub's contract, not through
 * the outbox). A failure to publish loses a piece of a preview, never the answer.
 */
export function answerStream(
  svc: AiService,
  scope: Scope,
  m: { session_id: string; message_id: string; agent_id: string | null },
) {
  let text = ''
  let pending = ''
  let index = 0
  let last = 0
  let sending: Promise<unknown> = Promise.resolve()
  const publish = () => {
    if (!pending) return
    const data = { partial: true, in_reply_to: m.message_id, index: index++, delta: pending, text }
    pending = ''
    last = Date.now()
    const signal = {
      session_id: m.session_id,
      kind: 'ai-response' as const,
      from: { kind: 'service' as const, id: 'ai-orchestrator' },
      to: 'session' as const,
      agent_id: m.agent_id,
      data,
    }
    sending = sending
      .then(() => svc.publish(AI_SENDER(scope), RealtimeSignalEvents.relayed, signal))
      .catch((err) => svc.log.debug({ err }, 'an AI answer piece was not relayed'))
  }
  return {
    onDelta(delta: string) {
      text += delta
      pending += delta
      if (pending.length >= CHARS || Date.now() - last >= EVERY_MS) publish()
    },
    /** sends what is left and waits for the pieces to be out */
    async end() {
      publish()
      await sending
    },
  }
}
