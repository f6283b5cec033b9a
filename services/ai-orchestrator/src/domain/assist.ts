/**
 * The pure rules of assist suggestions (`/api/assist/suggest`): the limits, and the intent of an agent's query from
 * keyword buckets.
 */

/** Suggestions of each kind at most, whatever is asked. */
export const MAX_SUGGESTIONS = 20
export const DEFAULT_SUGGESTIONS = 5
/** Tickets looked at (newest first) to find the similar ones. */
export const MAX_CANDIDATES = 1000
export const DEFAULT_CANDIDATES = 200

export const capped = (asked: number | undefined, fallback: number, max: number) => Math.min(asked ?? fallback, max)

export type IntentLabel = 'complaint' | 'billing' | 'technical' | 'general'

export interface Intent {
  label: IntentLabel
  confidence: number
  /** the bucket's keywords found in the query */
  matches?: string[]
}

/**
 * The keyword buckets, in order of precedence on a tie (a complaint about a bill is handled as a complaint). A
 * Chinese keyword is looked for in the query text; any other matches a token that is it or, from four letters
 * on, starts with it ("refunds", "crashed", "billing"), so one word is one keyword.
 */
export const INTENT_KEYWORDS: Readonly<Record<Exclude<IntentLabel, 'general'>, readonly string[]>> = {
  complaint: [
    'complain',
    'angry',
    'terrible',
    'awful',
    'unacceptable',
    'disappointed',
    'worst',
    'rude',
    'frustrated',
    'ridiculous',
    '投诉',
    '不满',
    '差评',
    '生气',
    '失望',
    '糟糕',
  ],
  billing: [
    'bill',
    'invoice',
    'payment',
    'pay',
    'paid',
    'refund',
    'charge',
    'price',
    'subscription',
    'receipt',
    'credit',
    '账单',
    '发票',
    '付款',
    '支付',
    '退款',
    '扣费',
    '收费',
    '价格',
    '订阅',
  ],
  technical: [
    'error',
    'bug',
    'crash',
    'broken',
    'login',
    'password',
    'install',
    'fail',
    'timeout',
    'slow',
    'api',
    'app',
    '错误',
    '故障',
    '崩溃',
    '登录',
    '密码',
    '无法',
    '安装',
    '报错',
    '打不开',
  ],
}

const HAN = /\p{Script=Han}/u

function keywordIn(keyword: string, text: string, tokens: readonly string[]): boolean {
  if (HAN.test(keyword)) return text.includes(keyword)
  return tokens.some((tok) => tok === keyword || (keyword.length >= 4 && tok.startsWith(keyword)))
}

/**
 * The query's intent: the bucket with the most keywords found; confidence 0.2 for a query without a
 * token, 0.35 for `general` (no keyword), 0.6 + 0.1 per further keyword, at most 0.95.
 */
export function intentOf(query: string, tokens: readonly string[]): Intent {
  if (tokens.length === 0) return { label: 'general', confidence: 0.2 }
  const text = query.toLowerCase()
  let best: { label: IntentLabel; matches: string[] } = { label: 'general', matches: [] }
  for (const [label, keywords] of Object.entries(INTENT_KEYWORDS) as [IntentLabel, readonly string[]][]) {
    const matches = keywords.filter((k) => keywordIn(k, text, tokens))
    if (matches.length > best.matches.length) best = { label, matches }
  }
  const hits = best.matches.length
  if (hits === 0) return { label: 'general', confidence: 0.35 }
  return {
    label: best.label,
    confidence: Math.min(0.95, Math.round((0.6 + 0.1 * (hits - 1)) * 100) / 100),
    matches: best.matches,
  }
}
