import { type Static, Type } from '@sinclair/typebox'
import { Nullable, Timestamp } from '@switchboard/contracts'

export const UPLOAD_FILE_FIELD = 'file'
const Credential = Type.String({
  minLength: 1,
  maxLength: 512,
  description: "an anonymous visitor's session credential",
})

/** An upload's metadata: what POST answers and `/uploads/:id/meta` shows. Messages reference it by `id`. */
export const Upload = Type.Object({
  id: Type.String(),
  filename: Type.String({ description: 'sanitised; shown only, never a path' }),
  content_type: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  sha256: Type.String({ description: 'hex' }),
  session_id: Nullable(Type.String()),
  url: Type.String({ description: '/uploads/<id>' }),
  created_at: Timestamp,
})
export type Upload = Static<typeof Upload>

/**
 * The text fields of the multipart form, sent before the file (the part named `file`). The form is read as a
 * stream in the handler, which checks these with this schema; `ticket_id` is reserved for ticket attachments.
 */
export const UploadFields = Type.Object(
  {
    session_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000]+$' }),
    visitor_credential: Type.Optional(Credential),
  },
  { additionalProperties: false },
)
export type UploadFields = Static<typeof UploadFields>

/** The form as the OpenAPI document shows it. */
export const UploadForm = Type.Composite([
  Type.Object({ [UPLOAD_FILE_FIELD]: Type.String({ format: 'binary', description: 'the file, one per request' }) }),
  UploadFields,
])

export const UploadParams = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f-]{36}$', description: 'the upload id' }),
})
export type UploadParams = Static<typeof UploadParams>

/** An anonymous visitor proves the session with its credential here, never in the URL (`?visitor_credential` is 400). */
export const UploadHeaders = Type.Object({ 'x-visitor-credential': Type.Optional(Credential) })

export const UploadBytes = { description: 'the bytes, with their content type', type: 'string', format: 'binary' }
