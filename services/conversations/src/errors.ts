import { createError } from '@switchboard/platform'

/**
 * conversations' error catalog; codes are stable (clients and tests match on them). A session, message, shift
 * or upload outside the caller's tenant/workspace answers with the very same not-found as a missing one.
 */
export const ConversationErrors = {
  SessionNotFound: createError('CONVERSATIONS_SESSION_NOT_FOUND', 'session %s not found', 404),
  SessionClosed: createError('CONVERSATIONS_SESSION_CLOSED', 'session %s is closed', 409),
  SessionNotClosed: createError('CONVERSATIONS_SESSION_NOT_CLOSED', 'session %s is not closed', 409),
  SessionScopeConflict: createError(
    'CONVERSATIONS_SESSION_SCOPE_CONFLICT',
    'session id %s is already used in another workspace',
    409,
  ),
  NotAssignedToYou: createError(
    'CONVERSATIONS_NOT_ASSIGNED',
    'session %s is not assigned to you; posting needs the supervisor permission',
    403,
  ),
  MessageTooLarge: createError('CONVERSATIONS_MESSAGE_TOO_LARGE', 'message content is larger than %d bytes', 413),
  AgentNotFound: createError('CONVERSATIONS_AGENT_NOT_FOUND', 'agent %s not found in this workspace', 404),
  // A person a request body names (README "References"): bad input, so 400 naming the field, the same for an id
  // nobody has and for another workspace's person (never a hint that it exists elsewhere).
  UnknownCustomer: createError('CONVERSATIONS_UNKNOWN_CUSTOMER', 'body.%s: no customer %s in this workspace', 400),
  UnknownAgent: createError('CONVERSATIONS_UNKNOWN_AGENT', 'body.%s: no agent %s in this workspace', 400),
  AgentOffline: createError('CONVERSATIONS_AGENT_OFFLINE', 'agent %s is not online', 409),
  AgentAtCapacity: createError('CONVERSATIONS_AGENT_AT_CAPACITY', 'agent %s is at maximum capacity', 409),
  AlreadyAssigned: createError('CONVERSATIONS_ALREADY_ASSIGNED', 'session %s is already assigned to an agent', 409),
  ShiftNotFound: createError('CONVERSATIONS_SHIFT_NOT_FOUND', 'shift %s not found', 404),
  UploadNotFound: createError('CONVERSATIONS_UPLOAD_NOT_FOUND', 'upload %s not found', 404),
  UploadTooLarge: createError('CONVERSATIONS_UPLOAD_TOO_LARGE', 'upload is larger than %d bytes', 413),
  UploadType: createError('CONVERSATIONS_UPLOAD_TYPE', 'content type %s is not accepted', 415),
  ServiceOnly: createError('CONVERSATIONS_SERVICE_ONLY', 'only service principals may call this endpoint', 403),
  /** a shift's window: names the field, as a validation failure does */
  ShiftWindow: createError('CONVERSATIONS_SHIFT_WINDOW', 'body.%s: %s', 400),
  /** a list bound that looks like a date but is none (2026-02-30), or lies outside the years 1970–9998 */
  ShiftDateBound: createError('CONVERSATIONS_SHIFT_DATE_BOUND', 'querystring.%s: %s', 400),
  /** a multipart field of POST /uploads: read in the handler (the form is a stream), so checked there */
  UploadField: createError('VALIDATION_FAILED', 'body.%s: %s', 400),
  UploadNotMultipart: createError('CONVERSATIONS_UPLOAD_NOT_MULTIPART', 'uploads are sent as multipart/form-data', 415),
  /** a multipart body the parser cannot take apart (no boundary, a part cut short, too many parts) */
  UploadForm: createError('VALIDATION_FAILED', 'body: %s', 400),
  /** the session holds UPLOAD_MAX_PER_SESSION files already */
  UploadQuota: createError('CONVERSATIONS_UPLOAD_QUOTA', 'this session holds %d uploads, the most it may', 409),
  /** message metadata past MESSAGE_MAX_METADATA_BYTES (the content's own bound is 413 MessageTooLarge) */
  MetadataTooLarge: createError('CONVERSATIONS_METADATA_TOO_LARGE', 'message metadata is larger than %d bytes', 400),
  /** `system` messages are the service's own (joins, hand-overs, closing) */
  MessageKind: createError('CONVERSATIONS_MESSAGE_KIND', 'body.kind: %s messages are not written by sender %s', 400),
  /** the AI answers only sessions no agent has taken */
  AgentHandles: createError(
    'CONVERSATIONS_AGENT_HANDLES',
    'session %s is handled by an agent; the AI does not answer over them',
    409,
  ),
  /** an internal caller naming a tenant/workspace in the body other than its own scope */
  ScopeMismatch: createError('CONVERSATIONS_SCOPE_MISMATCH', "body.%s: %s is outside the caller's scope", 403),
  /** a field of an internal request that its other fields rule out or require */
  BodyField: createError('VALIDATION_FAILED', 'body.%s: %s', 400),
  /** a query parameter the schema cannot judge alone (a cursor naming no message of the session) */
  QueryField: createError('VALIDATION_FAILED', 'querystring.%s: %s', 400),
  /** GET /api/agents/find-available: nobody online, under capacity (and on shift, where shifts are kept) */
  NoAgentAvailable: createError('CONVERSATIONS_NO_AGENT_AVAILABLE', 'no available agent found', 404),
  /** POST /api/agents/:id/release-session naming a session another agent (or none) handles */
  AgentNotAssigned: createError('CONVERSATIONS_AGENT_NOT_ASSIGNED', 'session %s is not assigned to agent %s', 409),
  /** the routes under /api/agents and /api/customers check the gateway's permission again (defence in depth) */
  PermissionMissing: createError('CONVERSATIONS_PERMISSION_MISSING', 'permission %s is required', 403),
  /** GET /api/customers/:id/activity: no such customer in the caller's scope (another tenant's is the same) */
  CustomerNotFound: createError('CONVERSATIONS_CUSTOMER_NOT_FOUND', 'customer %s not found', 404),
  /** an unscoped caller naming by user id a customer of several workspaces */
  CustomerAmbiguous: createError(
    'VALIDATION_FAILED',
    'params.id: %s is a customer in several workspaces; name one (X-Tenant-ID, X-Workspace-ID) or use its customer id',
    400,
  ),
  /** POST /public/widget/sessions/:id/satisfaction without UPSTREAM_TICKETS: nowhere to store the rating */
  TicketsUnavailable: createError('CONVERSATIONS_TICKETS_UNAVAILABLE', 'a rating cannot be stored here: %s', 503),
  /** tickets' refusal of a rating (409 already given, 400), passed on with its own code; its failure as 502 */
  TicketsRefused: (status: number, code: string, message: string) => {
    const key = `${status} ${code}`
    let E = refusals.get(key)
    if (!E) {
      E = createError(code, '%s', status)
      refusals.set(key, E)
    }
    return new E(message)
  },
}

const refusals = new Map<string, ReturnType<typeof createError>>()
