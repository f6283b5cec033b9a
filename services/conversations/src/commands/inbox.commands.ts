import { hasPermission, SUPERVISE_PERMISSION } from '@switchboard/auth'
import type { Caller, Scope } from '@switchboard/platform'
import type { ConversationsService } from '../context.ts'
import { advanceRead, type InboxRow, inboxRows, unreadIn } from '../db/inbox.repository.ts'
import { messageSeq } from '../db/messages.repository.ts'
import { queuePositionsOf, recentAssignments } from '../db/waiting.repository.ts'
import {
  decodeCursor,
  encodeCursor,
  inView,
  RESYNC_OVERLAP_MS,
  type ViewFilter,
  viewFilter,
} from '../domain/inbox-rules.ts'
import { assignmentInterval, ESTIMATE_WINDOW_MS, estimatedWaitSeconds } from '../domain/queue-estimate.ts'
import { ConversationErrors } from '../errors.ts'
import type { InboxItem, InboxPage, InboxQuery, ReadResult } from '../schemas/inbox.schemas.ts'
import type { Session } from '../schemas/sessions.schemas.ts'
import { mayRead } from './access.ts'
import type { QueueInfo } from './queue-info.ts'

/** `all` is the supervisors' (`workspace.supervise`) and admins' (`*`): an agent asking is refused (403). */
const maySeeAll = (c: Caller) =>
  c.principal !== undefined &&
  (c.principal.kind === 'admin' ||
    c.principal.kind === 'service' ||
    hasPermission(c.principal.permissions, SUPERVISE_PERMISSION))

/**
 * `GET /api/omni/inbox` (README "Inbox"): a keyset page of the view, newest activity first; with `changed_since`
 * every session of the scope changed since then (or whose read marker the caller moved), each told whether it
 * still belongs in the view (`in_view`), so a reconnecting console updates and drops rows without a full reload.
 */
export async function listInbox(svc: ConversationsService, caller: Caller, q: InboxQuery): Promise<InboxPage> {
  // taken before the read: whatever commits during it is listed again next time rather than missed
  const server_time = new Date(Date.now() - RESYNC_OVERLAP_MS).toISOString()
  const p = caller.principal
  if (!p || !mayRead(p)) return { items: [], next_cursor: null, server_time }
  if (q.view === 'all' && !maySeeAll(caller)) {
    throw new ConversationErrors.PermissionMissing(`${SUPERVISE_PERMISSION} (view=all)`)
  }
  const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor)
  if (q.cursor !== undefined && !cursor) throw new ConversationErrors.QueryField('cursor', 'not a cursor of this list')
  const filter = viewFilter(q.view, p.user_id, q.status, q.channel)
  const rows = await inboxRows(svc.db, {
    scope: caller.scope,
    me: p.user_id,
    limit: q.limit,
    cursor,
    filter: q.changed_since === undefined ? filter : undefined,
    changed_since: q.changed_since === undefined ? undefined : new Date(q.changed_since).toISOString(),
  })
  const page = rows.slice(0, q.limit)
  const queue = await queuePositions(svc, page)
  const items = page.map((r) => itemOf(r, filter, queue.get(r.id)))
  const last = page.at(-1)
  const next_cursor = rows.length > q.limit && last ? encodeCursor({ at: last.updated_at, id: last.id }) : null
  return { items, next_cursor, server_time }
}

/**
 * Queue positions and estimates of the page's waiting sessions: per scope, one query numbering the queue in its
 * order for just these sessions, and one rate query — never a count per row (the waiting view is all waiting rows).
 */
async function queuePositions(svc: ConversationsService, rows: InboxRow[]): Promise<Map<string, QueueInfo>> {
  const byScope = new Map<string, { scope: Scope; ids: string[] }>()
  for (const r of rows) {
    if (r.status !== 'waiting_human') continue
    const key = `${r.tenant_id}\u0000${r.workspace_id}`
    const entry = byScope.get(key) ?? { scope: { tenant_id: r.tenant_id, workspace_id: r.workspace_id }, ids: [] }
    entry.ids.push(r.id)
    byScope.set(key, entry)
  }
  const out = new Map<string, QueueInfo>()
  const since = new Date(Date.now() - ESTIMATE_WINDOW_MS).toISOString()
  for (const { scope, ids } of byScope.values()) {
    const interval = assignmentInterval(await recentAssignments(svc.db, scope, since))
    for (const p of await queuePositionsOf(svc.db, scope, ids)) {
      out.set(p.session_id, {
        position: p.position,
        estimated_wait_seconds: estimatedWaitSeconds(p.position, interval),
      })
    }
  }
  return out
}

function itemOf(r: InboxRow, filter: ViewFilter, waiting: QueueInfo | undefined): InboxItem {
  return {
    id: r.id,
    status: r.status as Session['status'],
    channel: r.channel,
    subject: r.subject,
    priority: r.priority,
    customer_id: r.customer_id,
    visitor_id: r.visitor_id,
    customer_name: r.customer_name ? r.customer_name : null,
    agent_id: r.agent_id,
    ticket_id: r.ticket_id,
    message_count: Number(r.message_count),
    started_at: r.started_at,
    last_activity_at: r.updated_at,
    last_message:
      r.lm_id === null
        ? null
        : {
            id: r.lm_id,
            seq: Number(r.lm_seq),
            sender: r.lm_sender as NonNullable<InboxItem['last_message']>['sender'],
            sender_id: r.lm_sender_id,
            kind: r.lm_kind ?? 'text',
            visibility: r.lm_visibility === 'internal' ? 'internal' : 'public',
            preview: r.lm_preview ?? '',
            created_at: r.lm_created_at ?? r.updated_at,
          },
    unread_count: Number(r.unread_count),
    last_read_seq: Number(r.last_read_seq ?? 0),
    queue_position: waiting?.position ?? null,
    estimated_wait_seconds: waiting?.estimated_wait_seconds ?? null,
    in_view: inView(r, filter),
  }
}

/**
 * The read marker (`POST /api/omni/sessions/:id/read`, and the hub's `read` frame from a console through
 * `/internal`): `user_id` has read the session up to `message_id` (a message of it, a note included; else 400).
 * Staff only, in the session's scope (404 outside it). The marker only moves forward.
 */
export function markRead(
  svc: ConversationsService,
  caller: Caller,
  lookIn: Scope,
  read: { session_id: string; message_id: string; user_id: string },
): Promise<ReadResult> {
  return svc.transaction(caller, async (tx) => {
    const row = await tx.db
      .selectFrom('sessions')
      .select(['id', 'tenant_id', 'workspace_id'])
      .where('id', '=', read.session_id)
      .$call((qb) => (lookIn.tenant_id ? qb.where('tenant_id', '=', lookIn.tenant_id) : qb))
      .$call((qb) => (lookIn.workspace_id ? qb.where('workspace_id', '=', lookIn.workspace_id) : qb))
      .executeTakeFirst()
    if (!row) throw new ConversationErrors.SessionNotFound(read.session_id)
    const seq = await messageSeq(tx.db, row.id, read.message_id, 'all')
    if (seq === undefined) {
      throw new ConversationErrors.BodyField('message_id', `no message ${read.message_id} in this session`)
    }
    const last_read_seq = await advanceRead(tx.db, {
      session_id: row.id,
      user_id: read.user_id,
      tenant_id: row.tenant_id,
      workspace_id: row.workspace_id,
      seq,
    })
    return { session_id: row.id, last_read_seq, unread_count: await unreadIn(tx.db, row.id, read.user_id) }
  })
}
