import type { Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { docCandidates } from '../db/knowledge-docs.repository.ts'
import { ticketCandidates } from '../db/ticket-index.repository.ts'
import {
  capped,
  DEFAULT_CANDIDATES,
  DEFAULT_SUGGESTIONS,
  intentOf,
  MAX_CANDIDATES,
  MAX_SUGGESTIONS,
} from '../domain/assist.ts'
import { queryTokens, tokenScore } from '../domain/search-terms.ts'
import { AiErrors } from '../errors.ts'
import type { Suggestions } from '../schemas/assist.schemas.ts'

export interface SuggestInput {
  query: string
  ticket_limit?: number | undefined
  knowledge_doc_limit?: number | undefined
  candidate_ticket_max?: number | undefined
}

/**
 * Suggestions for an agent's query, from the agent's scope only: its intent, the tickets (this
 * service's projection of tickets' events) and knowledge docs that share the most of its tokens. Candidates are
 * pre-filtered by LIKE (any token), newest first, at most `candidate_ticket_max` of each kind; each is scored by the
 * share of the query's tokens it holds (tickets: the title; docs: title, content and tags); best first, newest on a
 * tie.
 */
export async function suggest(svc: AiService, scope: Scope, input: SuggestInput): Promise<Suggestions> {
  const query = input.query.trim()
  if (!query) throw new AiErrors.QueryRequired()
  const tokens = queryTokens(query)
  const ticketLimit = capped(input.ticket_limit, DEFAULT_SUGGESTIONS, MAX_SUGGESTIONS)
  const docLimit = capped(input.knowledge_doc_limit, DEFAULT_SUGGESTIONS, MAX_SUGGESTIONS)
  const candidates = capped(input.candidate_ticket_max, DEFAULT_CANDIDATES, MAX_CANDIDATES)
  const [tickets, docs] = await Promise.all([
    ticketCandidates(svc.db, svc.dialect, scope, tokens, candidates),
    docCandidates(svc.db, svc.dialect, scope, tokens, candidates),
  ])
  const similar = best(
    tickets.map((t) => ({
      id: t.ticket_id,
      title: t.title,
      status: t.status,
      category: t.category,
      priority: t.priority,
      created_at: new Date(t.created_at).toISOString(),
      score: tokenScore(tokens, t.title),
    })),
    ticketLimit,
  )
  const knowledge = best(
    docs.map((d) => ({
      id: d.id,
      title: d.title,
      category: d.category,
      tags: d.tags,
      score: tokenScore(tokens, `${d.title}\n${d.content}\n${d.tags.join(' ')}`),
    })),
    docLimit,
  )
  return {
    success: true,
    data: {
      query,
      intent: intentOf(query, tokens),
      similar_tickets: similar,
      knowledge_docs: knowledge,
      meta: { tokens, ticket_candidates: tickets.length, doc_candidates: docs.length },
    },
  }
}

/** The best-scored first (the candidates come newest first, and the sort is stable), none that shares no token. */
const best = <T extends { score: number }>(items: T[], limit: number) =>
  items
    .filter((i) => i.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
