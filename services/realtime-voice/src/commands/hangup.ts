import { type Caller, nowIso } from '@switchboard/platform'
import type { RealtimeService } from '../context.ts'
import { updateCall } from '../db/calls.repository.ts'
import { type Call, scopeOfCall } from '../domain/call-record.ts'
import { closeConversation, noteCallEnded } from './conversation-link.ts'

/**
 * After a hangup (or a replay of one): the conversation the call opened is closed; one the invite named (a chat the
 * call joined) stays open for whoever is still in it, with a system message that the call ended. Done once: the
 * call remembers it, so a replayed hangup neither closes a conversation the customer reopened since nor repeats
 * the message.
 */
export async function settleConversation(svc: RealtimeService, caller: Caller, call: Call): Promise<Call> {
  if (call.status !== 'ended' || !call.conversation_id || call.conversation_settled_at) return call
  const ctx = { scope: scopeOfCall(call), request_id: caller.request_id }
  if (call.conversation_opened) await closeConversation(svc, ctx, call.conversation_id)
  else await noteCallEnded(svc, ctx, call.conversation_id, call)
  const now = nowIso()
  await svc.transaction(caller, (tx) => updateCall(tx.db, call.id, { conversation_settled_at: now }))
  return { ...call, conversation_settled_at: now }
}
