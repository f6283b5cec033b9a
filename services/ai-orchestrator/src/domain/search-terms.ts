/**
 * What a free-text query is made of, for searching (pure). User input reaches SQL only as these terms: runs of
 * letters and digits, never an operator, quote or bracket, so no query a user types can break a full-text parser.
 */

/** Terms of one search at most (a pasted page does not turn into a thousand-term query). */
export const MAX_TERMS = 32
/** Longer "words" are noise (hashes, base64): not searched. */
export const MAX_TERM_LENGTH = 64

/** Lowercased unique words (Unicode letters and digits) for a full-text index, in order of first appearance. */
export function fullTextTerms(query: string, max = MAX_TERMS): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  return unique(words.filter((w) => [...w].length <= MAX_TERM_LENGTH)).slice(0, max)
}

/**
 * The share of the query's terms that are words of `text` (0..1), accents aside as the full-text indexes set them
 * aside: "cafe" is a word of "Le café".
 */
export function termShare(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0
  const words = new Set(fullTextTerms(bare(text), Number.POSITIVE_INFINITY))
  return terms.filter((term) => words.has(bare(term))).length / terms.length
}

const bare = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/** Assist tokens at most, as the earlier system counted them. */
export const MAX_TOKENS = 20
/** A token this long or longer (in code points) is dropped, as the earlier system dropped it. */
export const MAX_TOKEN_RUNES = 32

/**
 * Tokens of a query: each Han character on its own (Chinese has no spaces between words), and runs
 * of other letters, digits and `_` — the earlier system's `[A-Za-z0-9_]+`, widened to every script so a Cyrillic or
 * accented word counts too; lowercased, unique, shorter than 32 code points, at most 20.
 */
export function queryTokens(query: string): string[] {
  const raw = query.toLowerCase().match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{M}\p{N}_])+/gu) ?? []
  return unique(raw.filter((tok) => [...tok].length < MAX_TOKEN_RUNES)).slice(0, MAX_TOKENS)
}

/** The share of `tokens` found in `text` (case-insensitive substring), 0..1: the assist score. */
export function tokenScore(tokens: readonly string[], text: string): number {
  if (tokens.length === 0) return 0
  const haystack = text.toLowerCase()
  const hits = tokens.filter((tok) => haystack.includes(tok)).length
  return Math.round((hits / tokens.length) * 1000) / 1000
}

/** `%token%` for LIKE, with LIKE's own wildcards escaped (`\` is the escape character). */
export const likePattern = (token: string) => `%${token.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const unique = (items: string[]) => [...new Set(items)]
