/**
 * `POST /api/session-transfer/check-auto`: whether a conversation should go to a human, by the earlier system's
 * rule: a hand-off keyword in one of the customer's last five messages, or a conversation
 * longer than five messages. Pure.
 */

/** The earlier system's list: Chinese words match anywhere, Latin ones at the start of a word. */
export const HANDOFF_KEYWORDS = ['人工', '客服', '转人工', '投诉', 'manual', 'human', 'agent', 'complaint'] as const

/** How many of the customer's latest messages are searched for a keyword. */
export const RECENT_CUSTOMER_MESSAGES = 5
/** A conversation with more messages than this goes to a human whatever it says. */
export const LONG_CONVERSATION = 5

/** The earlier clients sent `user` for the customer; ours say `customer`. */
const CUSTOMER_SENDERS = new Set(['customer', 'user'])

// `\b` before a Latin keyword: "agents" and "humans" still count, "reagent" and "urgent" do not.
const MATCHERS = HANDOFF_KEYWORDS.map((k) => ({
  keyword: k,
  re: /^[a-z]+$/.test(k) ? new RegExp(`\\b${k}`, 'i') : new RegExp(k),
}))

export interface AutoTransferVerdict {
  should_transfer: boolean
  reason: string
}

export function autoTransfer(messages: ReadonlyArray<{ content: string; sender: string }>): AutoTransferVerdict {
  const recent = messages.filter((m) => CUSTOMER_SENDERS.has(m.sender)).slice(-RECENT_CUSTOMER_MESSAGES)
  for (const m of recent) {
    const hit = MATCHERS.find((k) => k.re.test(m.content))
    if (hit) return { should_transfer: true, reason: `the customer asked for a human ("${hit.keyword}")` }
  }
  if (messages.length > LONG_CONVERSATION) {
    return { should_transfer: true, reason: `the conversation is longer than ${LONG_CONVERSATION} messages` }
  }
  return { should_transfer: false, reason: 'no hand-off keyword and a short conversation' }
}

/**
 * The transfer record's summary for the agent taking over. The earlier system asked the AI for one on longer
 * conversations; the AI is another service here, so the agent gets who and how long, and reads the history.
 */
export function handoverSummary(s: {
  customer_id: string | null
  visitor_id: string | null
  message_count: number | string
}): string {
  const n = Number(s.message_count)
  const who = s.customer_id ? `customer ${s.customer_id}` : s.visitor_id ? `visitor ${s.visitor_id}` : 'a customer'
  return `Conversation with ${who}, ${n} message${n === 1 ? '' : 's'} so far.`
}
