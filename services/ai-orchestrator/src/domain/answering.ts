import type { ChatMessage } from '../llm/port.ts'
import type { Passage } from '../providers/port.ts'

/**
 * The pure part of answering a question: when to hand over to a human, how sure an answer is, what the LLM is told,
 * and the answer when there is no LLM. The orchestrator (commands/query.commands.ts) does the calls.
 */

/** The longest answer sent back (characters); an LLM that rambles is cut here. */
export const MAX_ANSWER_CHARS = 2000

export const HANDOFF_REPLY = 'I will connect you with a human agent now. Please wait a moment.'
export const NO_ANSWER_REPLY =
  'I could not find an answer to that in our knowledge base. A human agent can help you with it.'

/** Confidence of an answer without any passage behind it: below the default threshold, so a human takes over. */
export const NO_PASSAGE_CONFIDENCE = 0.3

/** Does the customer ask for a person? (case-insensitive substrings, so "I want a HUMAN please" counts) */
export function asksForHuman(query: string, words: readonly string[]): boolean {
  const q = query.toLocaleLowerCase()
  return words.some((w) => w && q.includes(w.toLocaleLowerCase()))
}

/** How sure an answer built on these passages is: the best passage's score, kept within 0.55–0.95. */
export function confidenceOf(passages: readonly Passage[]): number {
  const top = passages[0]
  if (!top) return NO_PASSAGE_CONFIDENCE
  return Math.round(Math.min(0.95, Math.max(0.55, top.score)) * 100) / 100
}

export const SYSTEM_PROMPT =
  'You are the support assistant of this help desk. Answer the customer briefly and precisely, using only the ' +
  'knowledge passages given. Cite the passages you used as [1], [2]. If they do not answer the question, say so.'

/** The chat the LLM gets: the instructions, the passages numbered for citation, the question. */
export function promptFor(query: string, passages: readonly Passage[]): ChatMessage[] {
  const context = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.content}`).join('\n\n')
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }]
  if (context) messages.push({ role: 'system', content: `Knowledge passages:\n${context}` })
  messages.push({ role: 'user', content: query })
  return messages
}

/** The answer without an LLM: the best passage itself. */
export function passageAnswer(passages: readonly Passage[]): string {
  const top = passages[0]
  return top ? clip(top.content) : NO_ANSWER_REPLY
}

export const clip = (text: string) =>
  text.length <= MAX_ANSWER_CHARS ? text : `${text.slice(0, MAX_ANSWER_CHARS - 1).trimEnd()}…`
