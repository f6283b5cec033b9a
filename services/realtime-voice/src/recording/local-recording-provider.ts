import { type UploadTarget, uploadToConversation } from './audio-upload.ts'
import type { RecordingProvider } from './recording-provider.ts'

/**
 * `local`: this deployment keeps its recordings itself. It does not capture media: the client that holds the
 * audio (a media server, the agent's browser) sends it to `POST /api/voice/recordings/:id/audio` and this keeps it
 * in the call's conversation through conversations' uploads (their blob store, size and type rules), where agents
 * of the scope read it like any attachment. Start and stop have nothing to tell anyone else: the recording's rows
 * are the record.
 */
export function localRecordingProvider(target: UploadTarget): RecordingProvider {
  return {
    name: 'local',
    async start(rec) {
      return { provider_ref: `local:${rec.recording_id}` }
    },
    async stop() {},
    async keepAudio(rec, audio) {
      if (!rec.conversation_id) throw new Error(`recording ${rec.recording_id} has no conversation to keep audio in`)
      const upload = await uploadToConversation(target, rec.scope, rec.conversation_id, audio, rec.request_id)
      return { upload_id: upload.id, content_type: upload.content_type, size: upload.size, sha256: upload.sha256 }
    },
  }
}
