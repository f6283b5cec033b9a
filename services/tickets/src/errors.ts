import { createError } from '@switchboard/platform'

/** This service's error catalog; codes are stable and prefixed (docs/conventions.md §6). */
export const TicketErrors = {
  /** also the answer for a ticket outside the caller's tenant/workspace, so existence is not revealed */
  NotFound: createError('TICKETS_NOT_FOUND', 'ticket %s not found', 404),
  InvalidTransition: createError('TICKETS_INVALID_TRANSITION', 'cannot change status from %s to %s', 409),
  NotAssignable: createError('TICKETS_NOT_ASSIGNABLE', 'cannot assign a ticket in status %s', 409),
  AgentRequired: createError(
    'TICKETS_AGENT_REQUIRED',
    'cannot change status from %s to %s without an agent: use POST /api/tickets/:id/assign',
    409,
  ),
  // References are checked against identity's events as this service has seen them (the directory projection),
  // never by a call per request. Bad input, so 400 like every other (the fleet never answers 422).
  UnknownCustomer: createError('TICKETS_UNKNOWN_CUSTOMER', 'body.customer_id: no customer %s in this workspace', 400),
  UnknownAgent: createError('TICKETS_UNKNOWN_AGENT', 'body.agent_id: no agent %s in this workspace', 400),
  /** a ticket continuing a conversation names one of its own workspace (conversations' session events, as seen here) */
  UnknownSession: createError('TICKETS_UNKNOWN_SESSION', 'body.session_id: no session %s in this workspace', 400),
  NotUnassignable: createError('TICKETS_NOT_UNASSIGNABLE', 'cannot unassign a ticket in status %s', 409),
  /** every bad value of the request, each naming its field (`body.custom_fields.plan: required`) */
  InvalidCustomFields: createError('TICKETS_INVALID_CUSTOM_FIELDS', '%s', 400),
  /** a list or export filter that can't be used (`querystring.created_to: …`) */
  InvalidFilter: createError('TICKETS_INVALID_FILTER', '%s', 400),
  InvalidBulk: createError('TICKETS_INVALID_BULK', '%s', 400),
}

/** Custom field definitions (`/api/custom-fields`). */
export const CustomFieldErrors = {
  /** also the answer for a field of another tenant or workspace */
  NotFound: createError('TICKETS_CUSTOM_FIELD_NOT_FOUND', 'custom field %s not found', 404),
  Exists: createError(
    'TICKETS_CUSTOM_FIELD_EXISTS',
    'a custom field with key %s already exists in this workspace',
    409,
  ),
  Invalid: createError('TICKETS_CUSTOM_FIELD_INVALID', '%s', 400),
  TooMany: createError('TICKETS_CUSTOM_FIELD_LIMIT', 'a workspace holds at most %s custom fields', 409),
}

/** Macro errors (docs/conventions.md §6). */
export const MacroErrors = {
  NotFound: createError('TICKETS_MACRO_NOT_FOUND', 'macro %s not found', 404),
  NameTaken: createError('TICKETS_MACRO_NAME_TAKEN', 'a macro named %s exists', 409),
  Inactive: createError('TICKETS_MACRO_INACTIVE', 'macro %s is inactive', 400),
}

/** Satisfaction and survey errors (docs/conventions.md §6, docs/api.md §5: 410 is an expired survey). */
export const SatisfactionErrors = {
  NotFound: createError('TICKETS_SATISFACTION_NOT_FOUND', 'satisfaction %s not found', 404),
  Exists: createError('TICKETS_SATISFACTION_EXISTS', 'ticket %s already has a satisfaction rating', 409),
  // the earlier system's answer (403 "Access denied") when the rating names someone else's ticket
  NotOwner: createError('TICKETS_SATISFACTION_NOT_OWNER', 'customer %s does not own ticket %s', 403),
  /** a conversation rated already (the widget's CSAT is asked once per conversation) */
  AlreadyGiven: createError('TICKETS_SATISFACTION_ALREADY_GIVEN', 'session %s already has a satisfaction rating', 409),
  SurveyNotFound: createError('TICKETS_SURVEY_NOT_FOUND', 'survey not found', 404),
  SurveyCompleted: createError('TICKETS_SURVEY_COMPLETED', 'survey already completed', 409),
  SurveyExpired: createError('TICKETS_SURVEY_EXPIRED', 'survey expired', 410),
}

/** SLA errors (docs/conventions.md §6); a config or violation of another scope is not found, like a missing one. */
export const SlaErrors = {
  ConfigNotFound: createError('TICKETS_SLA_CONFIG_NOT_FOUND', 'SLA config %s not found', 404),
  NoConfigFor: createError('TICKETS_SLA_CONFIG_NOT_FOUND', 'no active SLA config for priority %s and tier %s', 404),
  InvalidConfig: createError('TICKETS_SLA_INVALID_CONFIG', '%s', 400),
  ConfigExists: createError('TICKETS_SLA_CONFIG_EXISTS', 'an SLA config for priority %s and tier %s exists', 409),
  NameTaken: createError('TICKETS_SLA_CONFIG_NAME_TAKEN', 'an SLA config named %s exists', 409),
  ViolationNotFound: createError('TICKETS_SLA_VIOLATION_NOT_FOUND', 'SLA violation %s not found', 404),
  ViolationResolved: createError('TICKETS_SLA_VIOLATION_RESOLVED', 'SLA violation %s is already resolved', 409),
  InvalidCalendar: createError('TICKETS_SLA_INVALID_BUSINESS_HOURS', 'body.%s', 400),
  InvalidDate: createError('TICKETS_INVALID_DATE', 'querystring.%s: must be a date YYYY-MM-DD', 400),
  DateOrder: createError('TICKETS_INVALID_DATE', 'querystring.date_to: must not be before date_from', 400),
}

/** The widget's public and internal paths (issue 21). */
export const WidgetErrors = {
  /** `/internal/*` answers service principals only (conversations) */
  ServiceOnly: createError('TICKETS_SERVICE_ONLY', 'only a service principal may call %s', 403),
  /** UPSTREAM_IDENTITY not configured: nobody can say whether the scope takes widget visitors */
  Unavailable: createError('TICKETS_WIDGET_UNAVAILABLE', 'the widget cannot leave messages here: %s', 503),
  /** identity's refusal (unknown scope 404, widget disabled 403, e-mail of another tenant's account 409), passed on */
  Refused: (status: number, code: string, message: string) => {
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
