import { hash } from 'node:crypto'
import { ERASED_TEXT } from '@switchboard/contracts'
import type { AuditLog } from '../schemas/audit.schemas.ts'
import { maskPerson } from './erasure-mask.ts'

/**
 * The erased subjects audit remembers, without the person: a subject (a customer's or account's id, one of the
 * identifiers the erasure masks, a resource of theirs) is kept as the SHA-256 of its tenant and its words
 * (lower-cased runs of letters and digits, joined by one space) and the number of those words. A record is matched by
 * hashing every run of that many consecutive words of its text, so the list matches what the masking matches —
 * `Zoe Erasmus` in "Dear ZOE ERASMUS," or `zoe@acme.test` in "mailto:zoe@acme.test" — at word boundaries (the
 * erasure consumer's own scan matches substrings, with the clear identifiers it is handed once).
 */
export type SubjectKind = 'id' | 'identifier' | 'resource'

export interface Subject {
  digest: string
  kind: SubjectKind
  /** words in the subject: the window the recorder hashes */
  tokens: number
  /**
   * 16 bits of a fast hash (FNV-1a) of the first word: the recorder hashes a window with SHA-256 only where it starts
   * with a word in one of these 65,536 buckets, so a record costs a fast hash per word, not a SHA-256 per window.
   * Too few bits to tell a word by.
   */
  lead: number
}

interface Word {
  text: string
  start: number
  end: number
}

const WORD = /[\p{L}\p{N}]+/gu

function wordsOf(text: string): Word[] {
  const out: Word[] = []
  for (const m of text.matchAll(WORD))
    out.push({ text: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length })
  return out
}

const digestOf = (tenant: string, words: readonly string[]) =>
  hash('sha256', `${tenant}\u0000${words.join(' ')}`, 'hex')

/** FNV-1a of a word, folded to 16 bits (Subject.lead). */
function leadOf(word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return (h ^ (h >>> 16)) & 0xffff
}

/** The subject of one clear value; undefined when it has no word (nothing a record could be matched by). */
export function subjectOf(tenant: string, value: string, kind: SubjectKind): Subject | undefined {
  const words = wordsOf(value).map((w) => w.text)
  return words.length
    ? { digest: digestOf(tenant, words), kind, tokens: words.length, lead: leadOf(words[0]!) }
    : undefined
}

/** One tenant's erased subjects as a replica holds them: what the recorder tests every record of the tenant with. */
export class ErasedIndex {
  readonly #kinds = new Map<string, SubjectKind>()
  readonly #windows = new Set<number>()
  readonly #leads = new Set<number>()
  readonly #subjects: Subject[]
  readonly tenant: string

  constructor(tenant: string, subjects: Iterable<Subject>) {
    this.tenant = tenant
    this.#subjects = [...subjects]
    for (const s of this.#subjects) {
      this.#kinds.set(s.digest, s.kind)
      this.#windows.add(s.tokens)
      this.#leads.add(s.lead)
    }
  }

  /** This index and one more subject. */
  with(subject: Subject): ErasedIndex {
    return new ErasedIndex(this.tenant, [...this.#subjects, subject])
  }

  get size(): number {
    return this.#kinds.size
  }

  kindOf(value: string): SubjectKind | undefined {
    const s = subjectOf(this.tenant, value, 'id')
    return s ? this.#kinds.get(s.digest) : undefined
  }

  /** The [start, end) spans of `text` that are an erased subject (merged where they overlap). */
  spans(text: string): Array<[number, number]> {
    if (this.#kinds.size === 0) return []
    const words = wordsOf(text)
    const hits: Array<[number, number]> = []
    for (let i = 0; i < words.length; i++) {
      if (!this.#leads.has(leadOf(words[i]!.text))) continue
      for (const n of this.#windows) {
        if (i + n > words.length) continue
        const window = words.slice(i, i + n)
        if (
          this.#kinds.has(
            digestOf(
              this.tenant,
              window.map((w) => w.text),
            ),
          )
        ) {
          hits.push([window[0]!.start, window[n - 1]!.end])
        }
      }
    }
    hits.sort((a, b) => a[0] - b[0])
    const merged: Array<[number, number]> = []
    for (const h of hits) {
      const last = merged.at(-1)
      if (last && h[0] <= last[1]) last[1] = Math.max(last[1], h[1])
      else merged.push(h)
    }
    return merged
  }

  /** `text` with every erased subject in it replaced by the erasure marker. */
  mask(text: string): string {
    const spans = this.spans(text)
    if (spans.length === 0) return text
    let out = ''
    let at = 0
    for (const [s, e] of spans) {
      out += text.slice(at, s) + ERASED_TEXT
      at = e
    }
    return out + text.slice(at)
  }
}

/** Every string value of a JSON value (keys are the record's shape, not its content). */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const v of value) yield* stringsOf(v)
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* stringsOf(v)
}

export interface ErasedMatch {
  /** done by an erased person (their address and user agent go too) */
  own: boolean
  /** the record's resource, when it is not yet an erased subject: the resource's later records concern them too */
  resource?: string
}

/**
 * Whether a record concerns an erased subject of its tenant: done by or to them, about one of their resources, or
 * naming one of their ids or identifiers in its payload or snapshots. Undefined when it does not.
 */
export function erasedMatch(index: ErasedIndex, r: AuditLog): ErasedMatch | undefined {
  if (index.size === 0) return undefined
  const actor = index.kindOf(r.actor_user_id)
  const resource = r.resource_id ? index.kindOf(r.resource_id) : undefined
  let named = actor !== undefined || resource !== undefined
  for (const json of [r.request_json, r.before_json, r.after_json]) {
    if (named) break
    for (const s of stringsOf(json)) {
      if (index.spans(s).length) {
        named = true
        break
      }
    }
  }
  if (!named) return undefined
  return { own: actor === 'id', ...(r.resource_id && resource === undefined ? { resource: r.resource_id } : {}) }
}

/** The record as the erasure consumer would have left it: personal fields and every erased subject masked. */
export function maskedRecord(index: ErasedIndex, r: AuditLog, m: ErasedMatch): AuditLog {
  const mask = (s: string) => index.mask(s)
  return {
    ...r,
    request_json: maskPerson(r.request_json, mask, true),
    before_json: maskPerson(r.before_json, mask, true),
    after_json: maskPerson(r.after_json, mask, true),
    ...(m.own ? { client_ip: '', user_agent: '' } : {}),
  }
}
