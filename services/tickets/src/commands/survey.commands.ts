import { createHash, randomBytes } from 'node:crypto'
import { TicketSatisfactionEvents } from '@switchboard/contracts'
import { type Caller, newId, nowIso, type Tx } from '@switchboard/platform'
import type { TicketsService } from '../context.ts'
import type { TicketsDatabase } from '../db/database.ts'
import { satisfactionOfTicket } from '../db/satisfaction.repository.ts'
import { displayNames } from '../db/sla-projections.repository.ts'
import {
  findSurveyForUpdate,
  insertSurvey,
  moveSurvey,
  surveyByTokenHash,
  surveyByTokenHashForUpdate,
  surveyOfTicket,
  toSurvey,
} from '../db/survey.repository.ts'
import { surveySettingsOf } from '../db/ticket-settings.repository.ts'
import { surveyChannel, surveyLink, surveyStatusAt } from '../domain/survey-rules.ts'
import { SatisfactionErrors } from '../errors.ts'
import type { CsatRespondBody, PublicSurvey } from '../schemas/csat.schemas.ts'
import type { Satisfaction, Survey } from '../schemas/satisfaction.schemas.ts'
import { rate } from './satisfaction.commands.ts'
import { scopeOf } from './sla-record.ts'

type TicketsTx = Tx<TicketsDatabase>

/**
 * A survey link's token: 32 random bytes (base64url), so it cannot be guessed; only its SHA-256 is stored, so a
 * copy of the database holds no live link.
 */
export function newSurveyToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashToken(token) }
}
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

async function announce(tx: TicketsTx, survey: Survey, token: string) {
  await tx.emit(
    TicketSatisfactionEvents.surveySent,
    {
      survey_id: survey.id,
      ticket_id: survey.ticket_id,
      customer_id: survey.customer_id,
      channel: survey.channel,
      link: surveyLink(token),
      expires_at: survey.expires_at,
    },
    scopeOf(survey),
  )
}

interface ClosedTicket {
  id: string
  customer_id: string
  agent_id: string | null
  source: string
  tenant_id: string
  workspace_id: string
}

/**
 * On close (called from the ticket's close path, in its transaction): a survey for the customer, unless the
 * workspace turned surveys off, or the ticket is already rated or already has one. Sent at once, over the channel
 * the ticket came through, answerable for the workspace's number of days (7 by default); the agent's display name
 * is captured now for the public page.
 */
export async function scheduleSurvey(tx: TicketsTx, ticket: ClosedTicket): Promise<void> {
  const rule = await surveySettingsOf(tx.db, scopeOf(ticket))
  if (!rule.enabled) return
  if (await satisfactionOfTicket(tx.db, ticket.id)) return
  if (await surveyOfTicket(tx.db, ticket.id)) return
  const now = new Date()
  const { token, hash } = newSurveyToken()
  const names = await displayNames(tx.db, scopeOf(ticket), { agent: ticket.agent_id })
  const survey: Survey = {
    id: newId(),
    ticket_id: ticket.id,
    customer_id: ticket.customer_id,
    agent_id: ticket.agent_id,
    agent_name: names.agent,
    channel: surveyChannel(ticket.source),
    status: 'sent',
    sent_at: now.toISOString(),
    expires_at: new Date(now.getTime() + rule.ttlMs).toISOString(),
    completed_at: null,
    satisfaction_id: null,
    tenant_id: ticket.tenant_id,
    workspace_id: ticket.workspace_id,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  }
  await insertSurvey(tx.db, survey, hash)
  await announce(tx, survey, token)
}

/** A fresh link (the old one stops working) and the workspace's days again; a completed survey is not resent. */
export function resendSurvey(svc: TicketsService, caller: Caller, id: string) {
  return svc.transaction(caller, async (tx) => {
    const row = await findSurveyForUpdate(tx, id, caller.scope)
    if (!row) throw new SatisfactionErrors.SurveyNotFound()
    const before = toSurvey(row)
    if (before.status === 'completed') throw new SatisfactionErrors.SurveyCompleted()
    const now = new Date()
    const { ttlMs } = await surveySettingsOf(tx.db, scopeOf(before))
    const { token, hash } = newSurveyToken()
    const patch = {
      status: 'sent',
      token_hash: hash,
      sent_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ttlMs).toISOString(),
      updated_at: now.toISOString(),
    } as const
    if (!(await moveSurvey(tx.db, id, ['queued', 'sent', 'expired'], patch))) {
      throw new SatisfactionErrors.SurveyCompleted()
    }
    const { token_hash: _h, ...visible } = patch
    const after: Survey = { ...before, ...visible }
    await announce(tx, after, token)
    return { before, after, link: surveyLink(token) }
  })
}

/** `GET /public/csat/:token`: the page's facts, nothing more; an unknown token is 404. */
export async function publicSurvey(svc: TicketsService, token: string): Promise<PublicSurvey> {
  const row = await surveyByTokenHash(svc.db, hashToken(token))
  if (!row) throw new SatisfactionErrors.SurveyNotFound()
  const ticket = await svc.db.selectFrom('tickets').select('title').where('id', '=', row.ticket_id).executeTakeFirst()
  return {
    ticket_title: ticket?.title ?? '',
    agent_name: row.agent_name,
    status: surveyStatusAt(row, new Date()),
    expires_at: row.expires_at,
    completed_at: row.completed_at,
  }
}

/**
 * `POST /public/csat/:token/respond`: the customer's rating, once. 404 unknown, 409 already answered (also when
 * staff recorded a rating meanwhile), 410 past its expiry: the survey is marked expired, committed before the
 * refusal is thrown.
 */
export async function respondToSurvey(
  svc: TicketsService,
  caller: Caller,
  token: string,
  body: CsatRespondBody,
): Promise<Satisfaction> {
  const outcome = await svc.transaction(caller, async (tx) => {
    const row = await surveyByTokenHashForUpdate(tx, hashToken(token))
    if (!row) throw new SatisfactionErrors.SurveyNotFound()
    if (row.status === 'completed') throw new SatisfactionErrors.SurveyCompleted()
    const now = nowIso()
    if (surveyStatusAt(row, new Date(now)) === 'expired') {
      await moveSurvey(tx.db, row.id, ['queued', 'sent'], { status: 'expired', updated_at: now })
      return 'expired' as const
    }
    if (await satisfactionOfTicket(tx.db, row.ticket_id)) throw new SatisfactionErrors.SurveyCompleted()
    return rate(tx, {
      id: newId(),
      ticket_id: row.ticket_id,
      customer_id: row.customer_id,
      session_id: null,
      agent_id: row.agent_id,
      rating: body.rating,
      comment: body.comment?.trim() ?? '',
      category: 'overall',
      source: 'survey',
      tenant_id: row.tenant_id,
      workspace_id: row.workspace_id,
      created_at: now,
      updated_at: now,
    })
  })
  if (outcome === 'expired') throw new SatisfactionErrors.SurveyExpired()
  return outcome
}
