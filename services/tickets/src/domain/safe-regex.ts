import vm from 'node:vm'

/**
 * Patterns a custom field's `validation.regex` may hold, and how they are run. A tenant writes the pattern and a
 * customer (or an agent) the input, so a pattern with catastrophic backtracking would let one request stall a
 * replica. Two guards: the pattern's shape (nested quantifiers and backreferences are refused), and a time budget
 * on each match over an input of bounded length. Not re2: a native addon for one validation rule; the shape check
 * refuses the classic exponential patterns, and the budget bounds the polynomial rest.
 */
export const REGEX_MAX_LENGTH = 200
/** the longest input a pattern is matched against (string values are shorter still, see custom-fields.ts) */
export const REGEX_INPUT_MAX = 1000
/**
 * Wall-clock time per attempt. A busy machine can hold up even a trivial match for tens of milliseconds, so a
 * match that runs out of time is tried once more before the value is refused: a slow pattern fails twice.
 */
export const REGEX_BUDGET_MS = 100

export type PatternCheck = { ok: true; regex: RegExp } | { ok: false; reason: string }

const QUANTIFIER_START = new Set(['*', '+', '?', '{'])

interface Quantifier {
  length: number
  /** may repeat its atom more than once */
  repeats: boolean
  /** may match a varying number of times (`{3}` doesn't): the source of backtracking choices */
  variable: boolean
}

/** `{n}`, `{n,}` or `{n,m}` at `i`; undefined when the brace is a literal. */
function braceQuantifier(src: string, i: number): Quantifier | undefined {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i))
  if (!m) return undefined
  const min = Number(m[1])
  const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3])
  return { length: m[0].length, repeats: max > 1, variable: max !== min }
}

/** The quantifier at `i`, if any; a lazy `?` after it is part of it. */
function quantifierAt(src: string, i: number): Quantifier | undefined {
  const c = src[i]
  if (c === undefined || !QUANTIFIER_START.has(c)) return undefined
  let q: Quantifier | undefined
  if (c === '{') q = braceQuantifier(src, i)
  else q = { length: 1, repeats: c !== '?', variable: true }
  if (q && src[i + q.length] === '?') q = { ...q, length: q.length + 1 }
  return q
}

/**
 * The structural check: a group that holds a variable quantifier and is itself repeated (`(a+)+`, `(a*)*`,
 * `(.*){3}`, `(a?){9}`) has a star height above one, the shape of exponential backtracking; a backreference can be
 * as bad. Fixed counts inside (`(?:[a-z]{2}\d)+`) offer no choice and pass. Returns the reason, or undefined.
 */
export function unsafeShape(src: string): string | undefined {
  // one entry per open group: whether anything inside it has a variable quantifier
  const groups: boolean[] = []
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      const next = src[i + 1] ?? ''
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not allowed'
      i++
    } else if (c === '[') {
      // a character class is one atom: skip to its closing bracket (escapes inside included)
      i++
      if (src[i] === '^') i++
      if (src[i] === ']') i++
      while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1
    } else if (c === '(') {
      groups.push(false)
      // (?:  (?=  (?!  (?<=  (?<!  (?<name>: the `?` is the group's kind, not a quantifier
      if (src[i + 1] === '?') {
        i++
        if (src[i + 1] === '<' && src[i + 2] !== '=' && src[i + 2] !== '!') {
          const close = src.indexOf('>', i)
          if (close > 0) i = close
        } else i++
      }
      continue
    } else if (c === ')') {
      const inner = groups.pop() ?? false
      const q = quantifierAt(src, i + 1)
      if (q?.repeats && inner)
        return 'a repeated group must not contain a variable quantifier (nested quantifiers backtrack exponentially)'
      if ((q?.variable || inner) && groups.length > 0) groups[groups.length - 1] = true
      if (q) i += q.length
      continue
    }
    const q = quantifierAt(src, i + 1)
    if (q) {
      if (q.variable && groups.length > 0) groups[groups.length - 1] = true
      i += q.length
    }
  }
  return undefined
}

/** Compiles a tenant's pattern if it is short, valid and of a safe shape (Unicode mode: `u`). */
export function checkPattern(source: string): PatternCheck {
  if (source.length > REGEX_MAX_LENGTH) return { ok: false, reason: `at most ${REGEX_MAX_LENGTH} characters` }
  let regex: RegExp
  try {
    regex = new RegExp(source, 'u')
  } catch (err) {
    return { ok: false, reason: `not a valid regular expression (${(err as Error).message})` }
  }
  const unsafe = unsafeShape(source)
  return unsafe ? { ok: false, reason: unsafe } : { ok: true, regex }
}

// One context for every match: a match is synchronous, so the two globals are never shared by two matches.
const sandbox = vm.createContext({ pattern: /(?:)/u, input: '' })
const matcher = new vm.Script('pattern.test(input)')

/**
 * Does `input` match, within the time budget (two attempts, see REGEX_BUDGET_MS)? `timeout` when both ran out (the
 * value is refused, and the pattern deserves a look); inputs longer than REGEX_INPUT_MAX are never matched.
 */
export function matchWithinBudget(regex: RegExp, input: string): boolean | 'timeout' | 'too_long' {
  if (input.length > REGEX_INPUT_MAX) return 'too_long'
  const first = attempt(regex, input)
  return first === 'timeout' ? attempt(regex, input) : first
}

function attempt(regex: RegExp, input: string): boolean | 'timeout' {
  regex.lastIndex = 0
  sandbox.pattern = regex
  sandbox.input = input
  try {
    return matcher.runInContext(sandbox, { timeout: REGEX_BUDGET_MS }) === true
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout'
    throw err
  } finally {
    sandbox.input = ''
  }
}
