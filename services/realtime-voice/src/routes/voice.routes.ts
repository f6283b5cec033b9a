import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { recordCallEvent } from '../commands/call-events.commands.ts'
import { recordMediaEvent } from '../commands/media-events.commands.ts'
import { attachAudio, startRecording, stopRecording } from '../commands/recordings.commands.ts'
import { createTranscript } from '../commands/transcripts.commands.ts'
import type { RealtimeService } from '../context.ts'
import { findCall } from '../db/calls.repository.ts'
import { callEventView, mediaEventView } from '../db/event-views.ts'
import { recordingView } from '../db/recording-view.ts'
import { findRecording } from '../db/recordings.repository.ts'
import { listTranscripts } from '../db/transcripts.repository.ts'
import { PROTOCOLS } from '../domain/protocols.ts'
import { RealtimeErrors, VoiceErrors } from '../errors.ts'
import {
  AudioBody,
  CallEvent,
  CallEventBody,
  CreateTranscriptBody,
  MediaEvent,
  MediaEventBody,
  ProtocolPage,
  ProtocolParams,
  ProtocolQuery,
  Recording,
  RecordingParams,
  StartRecordingBody,
  StopRecordingBody,
  Transcript,
  TranscriptPage,
  TranscriptQuery,
} from '../schemas/voice.schemas.ts'
import { AUDIO_BODY_LIMIT, formAudio, mediaTypeOf, ReceivedAudio, rawAudio } from './audio-body.ts'

const tags = ['voice']
// conversations answers through these routes: its refusals pass through, its failures are 502/504
const upstream = [502, 504]

/** `/api/voice/*`: calls, media events, recordings and transcripts (README "Voice"). Thin: rules are in voice/. */
export const voiceRoutes: RouteModule<RealtimeService> = async (app, svc) => {
  app.get(
    '/api/voice/protocols',
    { schema: { tags, querystring: ProtocolQuery, response: { 200: ProtocolPage, ...errorResponses(400, 401) } } },
    async (request) => {
      const window = pageWindow(request.query)
      return pageOf(PROTOCOLS.slice(window.offset, window.offset + window.limit), PROTOCOLS.length, window)
    },
  )

  app.post(
    '/api/voice/protocols/:protocol/call-events/:event',
    {
      schema: {
        tags,
        params: ProtocolParams,
        body: CallEventBody,
        response: { 200: CallEvent, ...errorResponses(400, 401, 404, 409, ...upstream) },
      },
    },
    async (request) => {
      const { protocol, event } = request.params
      const { payload } = request.body
      request.audit = {
        ...request.audit,
        action: 'voice.call_event',
        resource_type: 'voice_call',
        resource_id: payload.call_id,
      }
      const result = await recordCallEvent(svc, callerOf(request), { protocol, kind: event, payload })
      request.audit = { ...request.audit, before: result.before ?? undefined, after: result.after }
      return callEventView(result.event)
    },
  )

  app.post(
    '/api/voice/protocols/:protocol/media-events/:event',
    {
      schema: {
        tags,
        params: ProtocolParams,
        body: MediaEventBody,
        response: { 200: MediaEvent, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { protocol, event } = request.params
      const { payload } = request.body
      request.audit = {
        ...request.audit,
        action: 'voice.media_event',
        resource_type: 'voice_call',
        resource_id: payload.call_id,
      }
      const result = await recordMediaEvent(svc, callerOf(request), { protocol, kind: event, payload })
      const view = mediaEventView(result.event)
      request.audit = { ...request.audit, after: view }
      return view
    },
  )

  app.post(
    '/api/voice/recordings/start',
    {
      schema: {
        tags,
        body: StartRecordingBody,
        response: { 201: Recording, ...errorResponses(400, 401, 404, 409, 503, ...upstream) },
      },
    },
    async (request, reply) => {
      request.audit = { ...request.audit, action: 'voice.recording_start', resource_type: 'voice_recording' }
      const recording = await startRecording(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: recording.id, after: recording }
      return reply.code(201).send(recording)
    },
  )

  app.post(
    '/api/voice/recordings/stop',
    {
      schema: {
        tags,
        body: StopRecordingBody,
        response: { 200: Recording, ...errorResponses(400, 401, 404, 409, 503, ...upstream) },
      },
    },
    async (request) => {
      const id = request.body.recording_id
      request.audit = {
        ...request.audit,
        action: 'voice.recording_stop',
        resource_type: 'voice_recording',
        resource_id: id,
      }
      const { before, after } = await stopRecording(svc, callerOf(request), id)
      request.audit = { ...request.audit, before, after }
      return after
    },
  )

  app.get(
    '/api/voice/recordings/:id',
    { schema: { tags, params: RecordingParams, response: { 200: Recording, ...errorResponses(401, 404) } } },
    async (request) => {
      const row = await findRecording(svc.db, request.params.id, scopeOf(request))
      if (!row) throw new RealtimeErrors.RecordingNotFound(request.params.id)
      return recordingView(row)
    },
  )

  // Only this context parses audio and forms, bounded by the route: everywhere else such a body stays a 415.
  await app.register(async (audio) => {
    audio.addContentTypeParser(
      /^audio\//i,
      { parseAs: 'buffer', bodyLimit: AUDIO_BODY_LIMIT },
      (request, body, done) => {
        try {
          done(null, rawAudio(body as Buffer, request.headers['content-type']))
        } catch (err) {
          done(err as Error)
        }
      },
    )
    audio.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: AUDIO_BODY_LIMIT },
      (request, body, done) => {
        formAudio(body as Buffer, request.headers['content-type']).then(
          (parsed) => done(null, parsed),
          (err: Error) => done(err),
        )
      },
    )
    audio.post(
      '/api/voice/recordings/:id/audio',
      {
        bodyLimit: AUDIO_BODY_LIMIT,
        schema: {
          tags,
          consumes: ['audio/*', 'multipart/form-data'],
          params: RecordingParams,
          body: AudioBody,
          response: { 200: Recording, ...errorResponses(400, 401, 404, 409, 413, 415, 503, ...upstream) },
        },
        // The body schema documents the upload; the parsers above read and check it (a Buffer is no JSON value).
        // The id is only looked up (scoped): an odd one is simply not found.
        validatorCompiler: ({ httpPart }) => (httpPart === 'body' ? () => true : (data: unknown) => ({ value: data })),
      },
      async (request) => {
        // the body schema is OpenAPI's, not TypeBox's: the params' type is said here
        const { id } = request.params as RecordingParams
        request.audit = {
          ...request.audit,
          action: 'voice.recording_audio',
          resource_type: 'voice_recording',
          resource_id: id,
        }
        const received = request.body as unknown
        // another type this app parses (JSON), or none at all: not audio
        if (!(received instanceof ReceivedAudio)) {
          throw new VoiceErrors.AudioType(mediaTypeOf(request.headers['content-type']) || '(none)')
        }
        const { before, after } = await attachAudio(svc, callerOf(request), id, received.file)
        request.audit = { ...request.audit, before, after }
        return after
      },
    )
  })

  app.post(
    '/api/voice/transcripts',
    {
      schema: {
        tags,
        body: CreateTranscriptBody,
        response: { 201: Transcript, ...errorResponses(400, 401, 404, 409, 413, ...upstream) },
      },
    },
    async (request, reply) => {
      request.audit = { ...request.audit, action: 'voice.transcript_create', resource_type: 'voice_transcript' }
      const transcript = await createTranscript(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, resource_id: transcript.id, after: transcript }
      return reply.code(201).send(transcript)
    },
  )

  app.get(
    '/api/voice/transcripts',
    {
      schema: {
        tags,
        querystring: TranscriptQuery,
        response: { 200: TranscriptPage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const scope = scopeOf(request)
      const callId = request.query.call_id
      // a call outside the scope is as missing as no call, not an empty list that would confirm nothing either way
      if (callId !== undefined && !(await findCall(svc.db, callId, scope)))
        throw new RealtimeErrors.CallNotFound(callId)
      const window = pageWindow(request.query)
      const { rows, total } = await listTranscripts(svc.db, scope, { callId }, window)
      return pageOf(rows, total, window)
    },
  )
}
