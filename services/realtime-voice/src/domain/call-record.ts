import type { Scope } from '@switchboard/platform'
import type { CallStatus } from './call-state.ts'
import type { CallEventKind } from './protocols.ts'

/** A call as the commands see it (the `calls` row, with `from`/`to` under their wire names). */
export interface Call {
  id: string
  tenant_id: string
  workspace_id: string
  call_id: string
  protocol: string
  status: CallStatus
  from: string
  to: string
  conversation_id: string | null
  conversation_opened: boolean
  conversation_settled_at: string | null
  customer_id: string | null
  transferred_to: string | null
  dtmf_digits: string
  metadata: Record<string, unknown>
  started_at: string
  answered_at: string | null
  ended_at: string | null
  created_at: string
  updated_at: string
}

/** A stored call event, with what the wire does not show (its row id, sequence, the call's row). */
export interface StoredCallEvent {
  id: string
  tenant_id: string
  workspace_id: string
  event_id: string
  call_ref: string
  call_id: string
  protocol: string
  kind: CallEventKind
  seq: number
  call_status: CallStatus
  from: string
  to: string
  dtmf: string | null
  conversation_id: string | null
  occurred_at: string
  occurred_at_given: boolean
  metadata: Record<string, unknown>
  created_at: string
}

// Events and conversation calls carry the call's own scope, so an unscoped admin's change lands in the call's tenant.
export const scopeOfCall = (c: { tenant_id: string; workspace_id: string }): Scope => ({
  tenant_id: c.tenant_id,
  workspace_id: c.workspace_id,
})

/** What the call events carry (realtime.call.*). */
export function callFacts(c: Call) {
  return {
    call_id: c.call_id,
    protocol: c.protocol,
    status: c.status,
    from: c.from,
    to: c.to,
    conversation_id: c.conversation_id,
    started_at: c.started_at,
    answered_at: c.answered_at,
    ended_at: c.ended_at,
  }
}
