// The gateway's hand-over of its own audit records (POST /internal/audit/records), on PostgreSQL and SQLite: service
// principals only, each record stored once (a retried hand-over counts duplicates), hostile text stored with its
// markers, a record off its contract refused for good and named — no NATS involved (docs/architecture.md §2).
import { NUL_MARKER } from '@switchboard/platform'
import { inEachStorageMode, testPrincipal } from '@switchboard/testing'
import t from 'tap'
import { as, auditApp, auditEvent } from '../helpers/app.ts'

const gateway = testPrincipal({ user_id: 'gateway', kind: 'service', roles: [], tenant_id: '', workspace_id: '' })
const admin = testPrincipal()

inEachStorageMode(t, 'audit hand-over', async (t, mode) => {
  const { app, svc } = await auditApp(t, mode)
  const handOver = async (records: unknown[], who = gateway) =>
    app.inject({
      method: 'POST',
      url: '/internal/audit/records',
      headers: { ...(await as(who)), 'content-type': 'application/json' },
      payload: { records },
    })

  t.test('stores each record once, hostile text with its markers', async (t) => {
    const refusal = auditEvent(
      {
        actor_user_id: 'agent-1',
        action: 'security.revoke_tokens',
        resource_id: NUL_MARKER,
        route: '/api/security/users/:id/revoke-tokens',
        status_code: 403,
        success: false,
        sanitised: true,
      },
      { tenant_id: 'acme', workspace_id: 'support' },
    )
    const first = await handOver([refusal])
    t.equal(first.statusCode, 200, first.body)
    t.same(first.json(), { stored: 1, duplicates: 0, rejected: [] })
    const again = await handOver([refusal])
    t.same(again.json(), { stored: 0, duplicates: 1, rejected: [] }, 'a retried hand-over stores nothing twice')
    const rows = await svc.db.selectFrom('audit_logs').selectAll().where('event_id', '=', refusal.id).execute()
    t.equal(rows.length, 1)
    t.match(rows[0], { resource_id: NUL_MARKER, status_code: 403, tenant_id: 'acme', action: 'security.revoke_tokens' })
    const listed = await app.inject({ url: '/api/audit/logs?action=security.revoke_tokens', headers: await as(admin) })
    t.match(listed.json().data[0], { event_id: refusal.id, sanitised: true }, 'read back flagged')
  })

  t.test('a record off its contract is refused for good and named; the others are stored', async (t) => {
    const good = auditEvent({ action: 'tickets.delete', status_code: 403, success: false })
    const bad = { ...auditEvent({}), data: { action: 'broken' } }
    const res = await handOver([bad, good])
    t.equal(res.statusCode, 200)
    t.equal(res.json().stored, 1)
    t.match(res.json().rejected, [{ event_id: bad.id, error: /invalid audit record/ }])
  })

  t.test('service principals only; not without a principal', async (t) => {
    const res = await handOver([auditEvent({})], admin)
    t.equal(res.statusCode, 403)
    t.equal(res.json().code, 'AUDIT_SERVICE_ONLY')
    const none = await app.inject({ method: 'POST', url: '/internal/audit/records', payload: { records: [] } })
    t.equal(none.statusCode, 401)
  })
})
