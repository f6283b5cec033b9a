import { VoiceErrors } from '../errors.ts'
import type { AudioFile } from '../recording/audio-upload.ts'

/**
 * The audio a request carried. Held in a private field: the platform's input guard walks every enumerable property
 * of a parsed body looking for NUL characters, and megabytes of audio are not text.
 */
export class ReceivedAudio {
  readonly #file: AudioFile
  constructor(file: AudioFile) {
    this.#file = file
  }
  get file(): AudioFile {
    return this.#file
  }
}

/** What a raw body or a form's `file` may be: 10 MiB, conversations' default upload bound. */
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024
/** A form's boundaries and headers on top of the file */
export const AUDIO_BODY_LIMIT = AUDIO_MAX_BYTES + 64 * 1024

const EXTENSIONS: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/webm': 'webm',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
}

export const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase()

function checked(bytes: Uint8Array, type: string, filename: string): ReceivedAudio {
  if (!/^audio\/[a-z0-9.+-]+$/.test(type)) throw new VoiceErrors.AudioType(type || '(none)')
  if (bytes.byteLength === 0) throw new VoiceErrors.AudioMissing('the audio is empty')
  if (bytes.byteLength > AUDIO_MAX_BYTES) throw new VoiceErrors.AudioTooLarge(AUDIO_MAX_BYTES)
  return new ReceivedAudio({ bytes, content_type: type, filename })
}

/** A raw `audio/*` body: the type is the header's, the name made from it. */
export function rawAudio(body: Buffer, contentType: string | undefined): ReceivedAudio {
  const type = mediaTypeOf(contentType)
  return checked(body, type, `recording.${EXTENSIONS[type] ?? 'audio'}`)
}

/**
 * A multipart form whose part `file` is the audio. Parsed by the platform's own Fetch implementation (undici's
 * multipart parser) from the buffered body, which the route bounds; this service takes no other form.
 */
export async function formAudio(body: Buffer, contentType: string | undefined): Promise<ReceivedAudio> {
  let form: FormData
  try {
    form = await new Response(body, { headers: { 'content-type': contentType ?? '' } }).formData()
  } catch (err) {
    throw new VoiceErrors.AudioMissing('not a well-formed multipart/form-data body', { cause: err })
  }
  const file = form.get('file')
  if (!(file instanceof Blob)) throw new VoiceErrors.AudioMissing('the form has no file part "file"')
  const type = mediaTypeOf(file.type)
  const name = (file as File).name || `recording.${EXTENSIONS[type] ?? 'audio'}`
  return checked(new Uint8Array(await file.arrayBuffer()), type, name)
}
