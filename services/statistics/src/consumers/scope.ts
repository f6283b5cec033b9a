import type { Envelope } from '@switchboard/contracts'
import type { Scope } from '@switchboard/platform'

/** The envelope's scope when it names both parts; a record is bound to one workspace. */
export function scopeOfEvent(envelope: Envelope): Scope | null {
  return envelope.tenant_id && envelope.workspace_id
    ? { tenant_id: envelope.tenant_id, workspace_id: envelope.workspace_id }
    : null
}
