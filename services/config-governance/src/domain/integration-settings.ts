// An integration's settings in their three faces (as config-governance's scoped documents have them): stored
// (plain settings and sealed secrets kept apart), in clear (in memory only, to check them against the schema), and
// shown (each secret "[REDACTED]", its fingerprint beside). Pure but for the SecretBox's cipher.
import { REDACTED, type SecretBox, SecretUnreadable } from '@switchboard/platform'
import type { ConfigSchema } from '../schemas/integration.schemas.ts'
import { isSecretSetting } from './integration-schema.ts'

/** As stored: `config` holds no secret; `secrets` holds each secret sealed (`v1.<key id>.…`). */
export interface StoredSettings {
  config: Record<string, unknown>
  secrets: Record<string, string>
}

export const NO_SETTINGS: StoredSettings = Object.freeze({ config: {}, secrets: {} })

/** What a reader sees: every setting, each secret `"[REDACTED]"`. */
export function shownConfig(stored: StoredSettings): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored.config }
  for (const key of Object.keys(stored.secrets)) out[key] = REDACTED
  return out
}

/**
 * `{setting: fingerprint}` for each stored secret; one sealed under a key this replica no longer has reads
 * `unreadable:<key id>` (the record stays readable; writing it needs the secret anew).
 */
export function secretFingerprints(box: SecretBox, stored: StoredSettings): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, sealed] of Object.entries(stored.secrets)) {
    try {
      out[key] = box.fingerprint(box.open(sealed))
    } catch (err) {
      if (!(err instanceof SecretUnreadable)) throw err
      out[key] = `unreadable:${sealed.split('.')[1] ?? ''}`
    }
  }
  return out
}

/** The secrets sealed under an earlier key sealed again under the current one; unreadable ones stay as they are. */
export function resealStale(box: SecretBox, stored: StoredSettings): StoredSettings {
  const secrets: Record<string, string> = {}
  for (const [key, sealed] of Object.entries(stored.secrets)) {
    secrets[key] = sealed
    if (!box.stale(sealed)) continue
    try {
      secrets[key] = box.seal(box.open(sealed))
    } catch (err) {
      if (!(err instanceof SecretUnreadable)) throw err
    }
  }
  return { config: stored.config, secrets }
}

export type Settled =
  | { plain: Record<string, unknown>; stored: StoredSettings }
  | { notStored: string }
  | { unreadable: string }

/**
 * The settings after a write. `wanted` is every setting the integration is to have (absent or null: removed), secrets
 * as sent, or `"[REDACTED]"` to keep the stored one — a client echoing what it read. A secret is what `schema` marks
 * or its name says, or a stored secret kept as it was (changing the schema never reveals a stored secret; a new plain
 * value replaces it). Kept secrets are opened, so that the whole is checked against the schema, and sealed again
 * under the current key when a rotation left them behind. Refusals: `notStored`, "[REDACTED]" for a secret with
 * nothing stored; `unreadable`, a kept secret sealed under a key this replica no longer has.
 */
export function settleSettings(
  box: SecretBox,
  schema: ConfigSchema,
  current: StoredSettings,
  wanted: Record<string, unknown>,
): Settled {
  const plain: Record<string, unknown> = {}
  const stored: StoredSettings = { config: {}, secrets: {} }
  for (const [key, value] of Object.entries(wanted)) {
    if (value === null || value === undefined) continue
    const kept = Object.hasOwn(current.secrets, key) ? current.secrets[key] : undefined
    if (value === REDACTED && kept !== undefined) {
      try {
        plain[key] = box.open(kept)
      } catch (err) {
        if (err instanceof SecretUnreadable) return { unreadable: key }
        throw err
      }
      stored.secrets[key] = box.stale(kept) ? box.seal(plain[key] as string) : kept
    } else if (isSecretSetting(key, schema)) {
      if (value === REDACTED) return { notStored: key }
      plain[key] = value
      // a non-string is refused by the schema check; it is never stored
      stored.secrets[key] = typeof value === 'string' ? box.seal(value) : ''
    } else {
      plain[key] = value
      stored.config[key] = value
    }
  }
  return { plain, stored }
}
