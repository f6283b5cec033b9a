import { ConversationEvents } from '@switchboard/contracts'
import { type Caller, nowIso } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { toSession, updateSession } from '../db/sessions.repository.ts'
import { scopeOfSession, sessionFacts } from '../domain/session-facts.ts'
import { reopenPatch } from '../domain/session-rules.ts'
import { ConversationErrors } from '../errors.ts'
import { appendMessage } from './append-message.ts'
import { lockSession } from './load-session.ts'
import type { Change } from './sessions.commands.ts'

export function reopenText(reason: string | undefined): string {
  return reason ? `The conversation was reopened. Reason: ${reason}.` : 'The conversation was reopened.'
}

/**
 * Staff reopen a closed session (the console's "Reopen"): the very change a customer's new message makes
 * (`reopenPatch`: active, no agent — whoever handled it may be offline by now, so it is picked up or routed as a new
 * one), a system message and `conversations.session.reopened`, in one transaction. An open session is a 409.
 */
export async function reopenSession(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  reason: string | undefined,
): Promise<Change> {
  return svc.transaction(caller, async (tx): Promise<Change> => {
    const row = await lockSession(tx, id)
    if (row.status !== 'closed') throw new ConversationErrors.SessionNotClosed(id)
    const before = toSession(row)
    const patch = reopenPatch(nowIso())
    Object.assign(row, patch)
    await updateSession(tx.db, id, patch)
    await appendMessage(tx, row, {
      sender: 'system',
      sender_id: null,
      content: reopenText(reason),
      metadata: reason ? { reason } : {},
    })
    await tx.emit(ConversationEvents.sessionReopened, sessionFacts(toSession(row)), scopeOfSession(row))
    return { before, after: toSession(row) }
  })
}
