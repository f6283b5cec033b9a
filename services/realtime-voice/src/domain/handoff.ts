/**
 * Words with which a customer asks for a person, as the earlier system listened for them: a
 * customer's `text-message` holding one asks conversations for a human, as a `transfer-request` frame does. Pure.
 */
export const HANDOFF_WORDS = ['人工', '转人工', '客服', 'human', 'agent', 'operator', 'representative'] as const

// Latin words count whole (a plural too): "an agent please", "HUMANS?" do, "reagent", "humanity" and "agents'"
// inside another word do not. Chinese has no spaces between words: its words count wherever they stand.
const LATIN = HANDOFF_WORDS.filter((w) => /^[a-z]+$/.test(w))
// the longest first: 转人工 is named as itself, not as the 人工 inside it
const CJK = HANDOFF_WORDS.filter((w) => !/^[a-z]+$/.test(w)).sort((a, b) => b.length - a.length)
const LATIN_RE = new RegExp(`(?<![\\p{L}\\p{N}])(?:${LATIN.join('|')})s?(?![\\p{L}\\p{N}])`, 'iu')

/** The handoff word a message holds, or undefined. */
export function handoffWord(content: string): string | undefined {
  const latin = LATIN_RE.exec(content)
  if (latin) return latin[0].toLowerCase()
  return CJK.find((w) => content.includes(w))
}
