import { createHash } from 'node:crypto'
import type { Principal } from '@switchboard/contracts'
import { inScope } from '@switchboard/platform'
import { visitorCredentialMatches } from './visitor-credential.ts'

/**
 * What an upload's bytes must start with when its declared type has a signature: a `.png` that isn't one is
 * refused, so nothing served back as an image is really HTML or a script. Types without a signature
 * (`text/plain`) are taken as declared, and always served with `nosniff`.
 */
const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  'image/webp': (b) => startsWith(b, ascii('RIFF')) && startsWith(b.subarray(8), ascii('WEBP')),
  'application/pdf': (b) => startsWith(b, ascii('%PDF-')),
}

/** File name endings that promise one of the signed types, whatever type the client declared. */
const EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
}

/** Raster images a browser may show inline; anything else (an SVG too, should it ever be allowed) downloads. */
const INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** The extensions of the default types; the first is the one a served name gets when it lacks them all. */
const TYPE_EXTENSIONS: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt'],
}

function ascii(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0))
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((v, i) => bytes[i] === v)
}

/** `Image/PNG; charset=x` → `image/png`: the media type without parameters, as the allow-list lists it. */
export function mediaType(declared: string | undefined): string {
  return (declared ?? '').split(';')[0]!.trim().toLowerCase()
}

/**
 * Whether an upload may be kept: its declared type is allowed, the bytes carry that type's signature when it has
 * one, and a file name ending in a signed type's extension (`.png`) holds such a file.
 */
export function acceptableContent(type: string, filename: string, bytes: Uint8Array, allowed: readonly string[]) {
  if (!allowed.map((t) => t.toLowerCase()).includes(type)) return false
  const signed = SIGNATURES[type]
  if (signed && !signed(bytes)) return false
  const promised = EXTENSIONS[filename.split('.').pop()?.toLowerCase() ?? '']
  if (promised && filename.includes('.') && !SIGNATURES[promised]!(bytes)) return false
  return true
}

// Path separators, the characters Windows forbids, quotes and every control character (C0, DEL, C1).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/g
const MAX_NAME_CHARS = 200

/**
 * The name kept for an upload: the last path segment, without separators, reserved or control characters, no
 * leading dots (no hidden files, no `..`), at most 200 characters with its extension kept; `upload` when nothing
 * is left. It is only ever shown (content-disposition), never a path: files are named by id.
 */
export function sanitizeFilename(raw: string | undefined): string {
  const last = (raw ?? '').split(/[/\\]/).pop() ?? ''
  let name = last.normalize('NFC').replace(UNSAFE, '').trim().replace(/^\.+/, '').trim()
  const chars = [...name]
  if (chars.length > MAX_NAME_CHARS) {
    const dot = name.lastIndexOf('.')
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
    // by code points, so an emoji is never cut in half
    name = chars.slice(0, MAX_NAME_CHARS - [...ext].length).join('') + ext
  }
  return name || 'upload'
}

/**
 * The name a download is saved under: the kept name when its extension belongs to the type, else with the type's
 * extension added (`invoice.html` kept as image/png is saved as `invoice.html.png`), so a saved file opens as
 * what it was checked to be, never as a page. Types outside the defaults keep their name (and download).
 */
export function servedFilename(type: string, filename: string): string {
  const known = TYPE_EXTENSIONS[type]
  if (!known) return filename
  const ext = filename.includes('.') ? (filename.split('.').pop() ?? '').toLowerCase() : ''
  return known.includes(ext) ? filename : `${filename}.${known[0]}`
}

/**
 * `content-disposition` for a download: `inline` only for a raster image whose kept name already ends in its
 * type's extension, `attachment` otherwise; the name as servedFilename gives it, in ASCII as `filename` for old
 * clients and exactly as RFC 5987 `filename*`.
 */
export function contentDisposition(type: string, filename: string): string {
  const name = servedFilename(type, filename)
  const inline = INLINE.has(type) && name === filename
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/[%;]/g, '_')
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** The session facts the access rule needs. */
export interface SessionAccessFacts {
  tenant_id: string
  workspace_id: string
  customer_id: string | null
  visitor_secret_hash: string | null
}

/**
 * Who may write to and read the uploads of a session: staff (agents, admins, services) whose scope holds it, the
 * customer it belongs to, or the anonymous visitor holding its credential (visitor-credential.ts: SHA-256,
 * compared in constant time). Anyone else is answered as if the session did not exist.
 */
export function mayUseSession(
  session: SessionAccessFacts,
  principal: Principal | null | undefined,
  credential: string | undefined,
): boolean {
  if (principal) {
    const scope = { tenant_id: principal.tenant_id, workspace_id: principal.workspace_id }
    if (principal.kind !== 'end_user' && inScope(session, scope)) return true
    if (principal.kind === 'end_user' && session.customer_id !== null && principal.user_id === session.customer_id) {
      if (inScope(session, scope)) return true
    }
  }
  return credential !== undefined && visitorCredentialMatches(credential, session.visitor_secret_hash)
}
