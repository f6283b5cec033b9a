import { createError } from '@switchboard/platform'

/** ai-orchestrator's error catalog; codes are stable (docs/conventions.md §6). */
export const AiErrors = {
  /**
   * a provider asked directly (upload, sync, a doc's delete) is not configured, or switched off: the configuration
   * the caller works with, not an outage — a 4xx, so that no client can make this service answer 5xx (issue 19)
   */
  ProviderNotConfigured: createError('AI_PROVIDER_NOT_CONFIGURED', '%s', 409),
  /** a provider asked directly did not answer in time */
  ProviderTimeout: createError('AI_PROVIDER_TIMEOUT', '%s', 504),
  /** a provider asked directly answered with an error or garbage */
  ProviderFailed: createError('AI_PROVIDER_FAILED', '%s', 502),
  /** also the answer for a record outside the caller's tenant/workspace */
  DocNotFound: createError('KNOWLEDGE_DOC_NOT_FOUND', 'knowledge doc %s not found', 404),
  /** the public knowledge base: a doc that exists but is not public (the missing doc's code, its own message, as the earlier system answered) */
  DocNotPublic: createError('KNOWLEDGE_DOC_NOT_FOUND', 'document is not public', 404),
  /** the provider holding the doc's copy cannot delete documents (compatibility): the local doc is kept */
  DeleteUnsupported: createError('KNOWLEDGE_DELETE_UNSUPPORTED', '%s', 409),
  /** a title of nothing but spaces */
  BlankTitle: createError('KNOWLEDGE_DOC_INVALID', 'title must not be blank', 400),
  /** an assist query without a word in it */
  QueryRequired: createError('ASSIST_QUERY_REQUIRED', 'query is required', 400),
  /** a question's `session_id` names no conversation of the caller's workspace (another tenant's is none too) */
  UnknownSession: createError('AI_UNKNOWN_SESSION', 'body.session_id: no session %s in this workspace', 400),
  /** a question names a conversation, and this service is not connected to conversations (UPSTREAM_CONVERSATIONS) */
  ConversationsNotConfigured: createError(
    'AI_CONVERSATIONS_NOT_CONFIGURED',
    'body.session_id: this service is not connected to conversations (UPSTREAM_CONVERSATIONS), so no session is known',
    409,
  ),
  /** a tenant's document into the provider every tenant is answered from */
  ProviderShared: createError('AI_PROVIDER_SHARED', '%s', 403),
}
