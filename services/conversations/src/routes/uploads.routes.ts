import multipart from '@fastify/multipart'
import { callerOf, errorResponses, type RouteModule } from '@switchboard/platform'
import {
  createUpload,
  readableUpload,
  type UploadSession,
  uploadBytes,
  uploadTarget,
} from '../commands/uploads.commands.ts'
import type { ConversationsService } from '../context.ts'
import { toUpload } from '../db/uploads.repository.ts'
import { contentDisposition } from '../domain/upload-rules.ts'
import { ConversationErrors } from '../errors.ts'
import { Upload, UploadBytes, UploadForm, UploadHeaders, UploadParams } from '../schemas/uploads.schemas.ts'
import { readUploadForm } from './upload-form.ts'

const tags = ['uploads']

/**
 * A visitor's credential comes in the `x-visitor-credential` header only: in a URL it would be kept by every log,
 * proxy and browser history it passes. The old query form is refused rather than ignored, so a client still
 * using it learns why its reads fail.
 */
function credentialOf(request: { query: unknown; headers: { 'x-visitor-credential'?: string } }) {
  if (Object.hasOwn((request.query ?? {}) as object, 'visitor_credential')) {
    throw new ConversationErrors.QueryField('visitor_credential', 'send it in the x-visitor-credential header')
  }
  return request.headers['x-visitor-credential']
}

/**
 * `/uploads`: attachments for messages. `optional` routes: `request.principal` is the gateway's principal when the
 * caller sent a token and null for an anonymous widget visitor, who proves the session with its credential.
 * Not under `/api/`, so the platform does not audit them.
 */
export const uploadRoutes: RouteModule<ConversationsService> = async (app, svc) => {
  // Only this context parses multipart; everywhere else such a body stays a 415. Past `fileSize` the file
  // stream is cut and flagged `truncated` rather than thrown: the 413 is this service's, with its code.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: svc.config.uploads.max_bytes, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
  })

  app.post(
    '/uploads',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        body: UploadForm,
        response: { 201: Upload, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
      // The body schema documents the form; the form is a stream the handler reads and checks (upload-form.ts).
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const caller = callerOf(request)
      const progress = { done: false }
      let session: UploadSession | undefined
      try {
        const { file } = await readUploadForm(
          request,
          {
            admit: async (fields) => {
              session = await uploadTarget(svc, caller, fields)
            },
          },
          progress,
        )
        const upload = await createUpload(svc, caller, session!, file)
        return reply.code(201).send(upload)
      } catch (err) {
        // refused before the body's end: the rest is not read, the connection goes with the answer
        if (!progress.done) reply.header('connection', 'close')
        throw err
      }
    },
  )

  app.get(
    '/uploads/:id/meta',
    {
      schema: {
        tags,
        params: UploadParams,
        headers: UploadHeaders,
        response: { 200: Upload, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => toUpload(await readableUpload(svc, callerOf(request), request.params.id, credentialOf(request))),
  )

  app.get(
    '/uploads/:id',
    {
      schema: {
        tags,
        params: UploadParams,
        headers: UploadHeaders,
        response: { 200: UploadBytes, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const row = await readableUpload(svc, callerOf(request), request.params.id, credentialOf(request))
      const bytes = await uploadBytes(svc, row)
      return (
        reply
          .header('content-type', row.content_type)
          .header('content-length', bytes.byteLength)
          .header('content-disposition', contentDisposition(row.content_type, row.filename))
          .header('x-content-type-options', 'nosniff')
          // what a user uploaded never runs as a page of ours, even if a browser is talked into rendering it
          .header('content-security-policy', "default-src 'none'; sandbox")
          // readable only with a principal or credential: no shared cache may keep it
          .header('cache-control', 'private, no-cache')
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      )
    },
  )
}
