import type { AuditRecordData } from '@switchboard/contracts'
import { AUDIT_LIMITS, TOO_DEEP } from './masking.ts'

/** What a NUL character becomes in stored audit text: U+2400 SYMBOL FOR NULL (`␀`), the glyph that shows one. */
export const NUL_MARKER = '\u2400'

/** What an unpaired surrogate becomes: U+FFFD REPLACEMENT CHARACTER (`�`), as any UTF-8 decoder shows it. */
export const SURROGATE_MARKER = '\uFFFD'

/**
 * The text with what no store can keep faithfully made visible: NUL → `␀` (PostgreSQL refuses it in `text` and
 * `jsonb`), an unpaired surrogate → `�` (`jsonb` refuses its `\ud800` escape; UTF-8 cannot encode it).
 */
export function storableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed()
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', NUL_MARKER) : wellFormed
}

const needsWork = (text: string) => text.includes('\u0000') || !text.isWellFormed()

/**
 * A deep copy of a JSON-like value with every string and key made storable (`storableText`); `changed` says
 * whether anything was replaced. Past `AUDIT_LIMITS.depth` levels a value becomes the `TOO_DEEP` marker, so a
 * value that did not come through `auditSnapshot` cannot make it recurse without bound.
 */
export function storableValue(value: unknown, depth = 0): { value: unknown; changed: boolean } {
  if (typeof value === 'string')
    return needsWork(value) ? { value: storableText(value), changed: true } : { value, changed: false }
  if (value === null || typeof value !== 'object') return { value, changed: false }
  if (depth > AUDIT_LIMITS.depth) return { value: TOO_DEEP, changed: true }
  let changed = false
  if (Array.isArray(value)) {
    const out = value.map((v) => {
      const r = storableValue(v, depth + 1)
      changed ||= r.changed
      return r.value
    })
    return { value: out, changed }
  }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const key = needsWork(k) ? storableText(k) : k
    const r = storableValue(v, depth + 1)
    changed ||= r.changed || key !== k
    out[key] = r.value
  }
  return { value: out, changed }
}

const TEXT_FIELDS = [
  'actor_user_id',
  'principal_kind',
  'action',
  'resource_type',
  'resource_id',
  'route',
  'method',
  'request_id',
  'client_ip',
  'user_agent',
] as const satisfies ReadonlyArray<keyof AuditRecordData>

const JSON_FIELDS = ['request_json', 'before_json', 'after_json'] as const satisfies ReadonlyArray<
  keyof AuditRecordData
>

/**
 * An audit record that both engines store as it is (docs/api.md §12): every text field and every string and key
 * of its snapshots made storable, and `sanitised: true` when anything was replaced. A hostile request's record
 * is kept — with its NULs and lone surrogates visible as markers — instead of being refused by PostgreSQL and
 * lost. Applied by every writer of audit records (the platform's hook, the gateway) and again by the audit
 * service before it stores one.
 */
export function storableAuditRecord(data: AuditRecordData): AuditRecordData {
  let sanitised = data.sanitised === true
  const out: AuditRecordData = { ...data }
  for (const field of TEXT_FIELDS) {
    const text = data[field]
    if (typeof text === 'string' && needsWork(text)) {
      out[field] = storableText(text)
      sanitised = true
    }
  }
  for (const field of JSON_FIELDS) {
    const r = storableValue(data[field])
    if (!r.changed) continue
    out[field] = r.value
    sanitised = true
  }
  if (sanitised) out.sanitised = true
  return out
}
