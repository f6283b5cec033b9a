import type { FastifyRequest } from 'fastify'
import type { ChangeControl } from '../commands/scope.ts'
import { ConfigErrors } from '../errors.ts'

const SECTION_KEYS = ['portal', 'llm', 'knowledge_provider', 'session_risk'] as const

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name]
  const s = (Array.isArray(v) ? v[0] : v)?.trim()
  return s ? s.slice(0, 2000) : undefined
}

/** change_ref + reason (+ approval_ref) from the body, else the X-Change-* headers; both required. */
export function changeControlOf(
  request: FastifyRequest,
  body: { change_ref?: string | undefined; reason?: string | undefined; approval_ref?: string | undefined },
): ChangeControl {
  const change_ref = body.change_ref?.trim() || header(request, 'x-change-ref')
  const reason = body.reason?.trim() || header(request, 'x-change-reason')
  if (!change_ref || !reason) throw new ConfigErrors.ChangeControlRequired()
  return { change_ref, reason, approval_ref: body.approval_ref?.trim() || header(request, 'x-approval-ref') || null }
}

/** The sections a body sends (PUT, proposal, preview): present ones replace the stored ones, `null` removes one. */
export function sectionsOf(body: Partial<Record<(typeof SECTION_KEYS)[number], Record<string, unknown> | null>>) {
  const sections: Record<string, Record<string, unknown> | null> = {}
  for (const s of SECTION_KEYS) if (body[s] !== undefined) sections[s] = body[s] ?? null
  return sections
}
