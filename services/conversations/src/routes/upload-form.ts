import type { Multipart, MultipartFile, MultipartValue } from '@fastify/multipart'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { IncomingFile } from '../commands/uploads.commands.ts'
import { ConversationErrors } from '../errors.ts'
import { UPLOAD_FILE_FIELD, UploadFields } from '../schemas/uploads.schemas.ts'

// POST /uploads reads its form as a stream, in the order the form must come: the text fields, then the one file.
// Access is decided on the fields as the file begins, so a caller who may not use the session never has a byte
// of the file read (README "Uploads").

const checkFields = TypeCompiler.Compile(UploadFields)
const FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(UploadFields.properties))

/** The part of a request the form reader uses (the multipart plugin's decorations). */
export interface FormRequest {
  isMultipart(): boolean
  parts(): AsyncIterableIterator<Multipart>
}

export interface FormHandlers {
  /** the fields, checked, as the file begins: throws to refuse the upload before the file is read */
  admit(fields: UploadFields): Promise<void>
}

/**
 * What the parser throws is the client's form: a second file (busboy's files limit), too many parts, no boundary,
 * a part cut short. 400 naming what it can; the plugin's own 400 for a field named like a prototype property.
 */
function malformed(err: unknown): Error {
  const code = (err as { code?: string } | null)?.code
  if (code === 'FST_FILES_LIMIT') return new ConversationErrors.UploadField(UPLOAD_FILE_FIELD, 'one file per request')
  if (code === 'FST_PROTO_VIOLATION') return err as Error
  const what =
    code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT'
      ? 'too many parts: the form is session_id, visitor_credential (visitors) and one file'
      : 'not a well-formed multipart/form-data body'
  return new ConversationErrors.UploadForm(what, { cause: err })
}

/** A text field, refused at once when it is not one of the form's, repeated, or cut at the size limit. */
function takeField(fields: Record<string, string>, part: MultipartValue) {
  const name = part.fieldname
  if (name === 'ticket_id') throw new ConversationErrors.UploadField(name, 'ticket attachments are not open yet')
  if (name === UPLOAD_FILE_FIELD)
    throw new ConversationErrors.UploadField(name, 'must be a file (a part with a filename)')
  if (!FIELD_NAMES.has(name)) throw new ConversationErrors.UploadField(name, 'is not a field of this form')
  if (Object.hasOwn(fields, name)) throw new ConversationErrors.UploadField(name, 'must appear once')
  if (part.valueTruncated) throw new ConversationErrors.UploadField(name, 'is too long')
  fields[name] = String(part.value)
}

function checked(fields: Record<string, string>, where = ''): UploadFields {
  if (!Object.hasOwn(fields, 'session_id'))
    throw new ConversationErrors.UploadField('session_id', `is required${where}`)
  if (!checkFields.Check(fields)) {
    const first = checkFields.Errors(fields).First()
    const field = first?.path.replace(/^\//, '').replaceAll('/', '.') || 'session_id'
    throw new ConversationErrors.UploadField(field, first?.message ?? 'invalid')
  }
  return fields
}

/** The file, buffered up to the size limit: past it busboy cuts the stream and flags it `truncated`. */
async function readFile(part: MultipartFile): Promise<IncomingFile> {
  const chunks: Buffer[] = []
  try {
    for await (const chunk of part.file) chunks.push(chunk as Buffer)
  } catch (err) {
    throw malformed(err)
  }
  return {
    filename: part.filename,
    content_type: part.mimetype,
    bytes: Buffer.concat(chunks),
    truncated: part.file.truncated,
  }
}

/**
 * Reads the form to its end: the fields (each checked as it comes), `admit` on them when the file begins, the
 * file, and nothing after it but the end (a field after the file or a second file is a 400). `done` tells the
 * caller whether the body was read through, for a refusal that leaves the rest of it unread.
 */
export async function readUploadForm(
  request: FormRequest,
  handlers: FormHandlers,
  progress: { done: boolean },
): Promise<{ fields: UploadFields; file: IncomingFile }> {
  if (!request.isMultipart()) throw new ConversationErrors.UploadNotMultipart()
  let parts: AsyncIterableIterator<Multipart>
  try {
    parts = request.parts()
  } catch (err) {
    // busboy refuses a content type without a boundary as it is made
    throw malformed(err)
  }
  const fields: Record<string, string> = {}
  let file: IncomingFile | undefined
  for (;;) {
    const next = await parts.next().catch((err: unknown) => {
      throw malformed(err)
    })
    if (next.done) break
    const part = next.value
    if (part.type === 'field') {
      if (file) throw new ConversationErrors.UploadField(part.fieldname, 'fields come before the file')
      takeField(fields, part)
      continue
    }
    if (part.fieldname !== UPLOAD_FILE_FIELD) {
      part.file.resume()
      throw new ConversationErrors.UploadField(part.fieldname, `files are sent as "${UPLOAD_FILE_FIELD}"`)
    }
    await handlers.admit(checked(fields, ', before the file'))
    file = await readFile(part)
  }
  progress.done = true
  if (!file) {
    checked(fields)
    throw new ConversationErrors.UploadField(UPLOAD_FILE_FIELD, 'a file is required')
  }
  return { fields: checked(fields), file }
}
