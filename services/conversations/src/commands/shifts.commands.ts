import { type Caller, concreteScope, newId, nowIso, type Tx } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import type { ConversationsDatabase } from '../db/database.ts'
import {
  findShiftForUpdate,
  insertShift,
  deleteShift as removeShift,
  updateShift as writeShift,
} from '../db/shifts.repository.ts'
import { shiftInstant, windowProblem } from '../domain/shift-rules.ts'
import { ConversationErrors } from '../errors.ts'
import type { CreateShiftBody, Shift, UpdateShiftBody } from '../schemas/shifts.schemas.ts'
import { agentReference } from './references.ts'

/** A command's answer when it changed a shift: both sides, for the audit record. */
export interface ShiftChange {
  before: Shift
  after: Shift
}

type ConversationsTx = Tx<ConversationsDatabase>

/** A shift time normalised to UTC; outside the years both engines store (shift-rules.ts) a 400 naming the field. */
function instant(field: 'start_time' | 'end_time', value: string): string {
  const checked = shiftInstant(value)
  if ('problem' in checked) throw new ConversationErrors.BodyField(field, checked.problem)
  return checked.at
}

function checkWindow(start: string, end: string, changed: { start?: boolean; end?: boolean }) {
  const problem = windowProblem(start, end, changed)
  if (problem) throw new ConversationErrors.ShiftWindow(problem.field, problem.message)
}

/** Reads a shift of the caller's scope for change: another tenant's is not found, like a missing one. */
async function load(tx: ConversationsTx, id: string): Promise<Shift> {
  const shift = await findShiftForUpdate(tx, id, tx.caller.scope)
  if (!shift) throw new ConversationErrors.ShiftNotFound(id)
  return shift
}

/** A shift of an agent of the caller's scope (record or user id, stored by user id; else 400, references.ts). */
export async function createShift(svc: ConversationsService, caller: Caller, body: CreateShiftBody): Promise<Shift> {
  const scope = concreteScope(caller)
  const start = instant('start_time', body.start_time)
  const end = instant('end_time', body.end_time)
  checkWindow(start, end, { start: true, end: true })
  const agentId = await agentReference(svc, scope, body.agent_id)
  const now = nowIso()
  const shift: Shift = {
    id: newId(),
    tenant_id: scope.tenant_id,
    workspace_id: scope.workspace_id,
    agent_id: agentId,
    shift_type: body.shift_type,
    start_time: start,
    end_time: end,
    status: body.status ?? 'scheduled',
    created_at: now,
    updated_at: now,
  }
  return svc.transaction(caller, async (tx) => {
    await insertShift(tx.db, shift)
    return shift
  })
}

export function updateShift(
  svc: ConversationsService,
  caller: Caller,
  id: string,
  body: UpdateShiftBody,
): Promise<ShiftChange> {
  return svc.transaction(caller, async (tx) => {
    const before = await load(tx, id)
    const asked: Partial<Shift> = {
      ...(body.shift_type !== undefined ? { shift_type: body.shift_type } : {}),
      ...(body.start_time !== undefined ? { start_time: instant('start_time', body.start_time) } : {}),
      ...(body.end_time !== undefined ? { end_time: instant('end_time', body.end_time) } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
    }
    const patch = Object.fromEntries(
      Object.entries(asked).filter(([key, value]) => before[key as keyof Shift] !== value),
    ) as Partial<Shift>
    const merged = { ...before, ...patch }
    // the window is checked as it will be stored: moving only the start past the stored end is refused too
    checkWindow(merged.start_time, merged.end_time, {
      start: body.start_time !== undefined,
      end: body.end_time !== undefined,
    })
    // Nothing differs: no write, updated_at untouched (a PUT is idempotent).
    if (Object.keys(patch).length === 0) return { before, after: before }
    const after: Shift = { ...merged, updated_at: nowIso() }
    await writeShift(tx.db, id, { ...patch, updated_at: after.updated_at })
    return { before, after }
  })
}

/** Deletes a shift of the caller's scope; answers what it removed, for the audit record. */
export function deleteShift(svc: ConversationsService, caller: Caller, id: string): Promise<Shift> {
  return svc.transaction(caller, async (tx) => {
    const before = await load(tx, id)
    await removeShift(tx.db, id)
    return before
  })
}
