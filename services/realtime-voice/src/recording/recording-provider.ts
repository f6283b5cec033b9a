import type { Scope } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import type { AudioFile } from './audio-upload.ts'
import { localRecordingProvider } from './local-recording-provider.ts'

/** The recording a provider is asked about. */
export interface RecordingTarget {
  recording_id: string
  call_id: string
  conversation_id: string | null
  scope: Scope
  request_id?: string | undefined
}

/** Where a recording's audio was kept. */
export interface KeptAudio {
  upload_id: string
  content_type: string
  size: number
  sha256: string
}

/**
 * The port to whatever captures and keeps call audio. The recording's metadata (status, times, where its audio is)
 * is this service's rows whichever provider is configured, so GET answers the same for all of them; a provider
 * starts and stops capturing on its side and keeps the audio.
 */
export interface RecordingProvider {
  readonly name: string
  /** capturing begins; the answer is the provider's reference of the recording */
  start(target: RecordingTarget): Promise<{ provider_ref: string }>
  /** capturing ends */
  stop(target: RecordingTarget & { provider_ref: string }): Promise<void>
  /** keeps the recording's audio */
  keepAudio(target: RecordingTarget, audio: AudioFile): Promise<KeptAudio>
}

const providers = new WeakMap<RealtimeService, RecordingProvider>()

/** The configured provider (VOICE_RECORDING_PROVIDER), or null when recording is disabled. Made once per app. */
export function recordingProviderOf(svc: RealtimeService): RecordingProvider | null {
  if (svc.config.voice.recording_provider === 'disabled') return null
  let provider = providers.get(svc)
  if (!provider) {
    provider = localRecordingProvider({
      urls: svc.config.conversations_urls,
      internalSecret: svc.config.internal_secret,
      self: svc.name,
    })
    providers.set(svc, provider)
  }
  return provider
}
