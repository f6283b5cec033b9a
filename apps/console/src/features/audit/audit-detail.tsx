/**
 * One audit record (`/admin/audit/:id`): who did what to which resource, the outcome, and its before/after diff as
 * the service computes it (`GET /api/audit/logs/:id/diff`: dotted paths, each added, removed or updated, old → new).
 */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { type AuditChange, auditDiff, auditKeys } from './api.ts'
import './messages.ts'

/** A value as compact JSON text ("(none)" when absent), at most 300 characters. */
function show(value: unknown, absent: string): string {
  if (value === undefined) return absent
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  return text.length > 300 ? `${text.slice(0, 299)}…` : text
}

function ChangeRow({ change }: { change: AuditChange }) {
  const { t } = useI18n()
  const absent = t('audit.absent')
  return (
    <tr>
      <th scope="row">
        <code>{change.path}</code>
      </th>
      <td>{t(`audit.change.${change.type}`)}</td>
      <td>
        {change.type !== 'added' && (
          <del className="diff-old">
            <code>{show(change.before, absent)}</code>
          </del>
        )}
        {change.type === 'updated' && <span aria-hidden="true"> → </span>}
        {change.type !== 'removed' && (
          <ins className="diff-new">
            <code>{show(change.after, absent)}</code>
          </ins>
        )}
      </td>
    </tr>
  )
}

export function AuditDetail({ id }: { id: string }) {
  const { t, formatTime } = useI18n()
  const query = useQuery({ queryKey: auditKeys.diff(id), queryFn: ({ signal }) => auditDiff(id, signal) })
  const record = query.data?.audit
  const diff = query.data?.diff
  return (
    <section className="admin-page admin-detail" aria-labelledby="audit-record-title">
      <p>
        <Link href="/admin/audit">{t('audit.back')}</Link>
      </p>
      <h1 id="audit-record-title">{record ? `${t('audit.record')}: ${record.action}` : t('audit.record')}</h1>
      <ErrorText error={query.error} />
      {query.isPending && <Loading label={t('audit.detail.loading')} />}
      {record && diff && (
        <>
          <dl>
            <dt>{t('audit.field.id')}</dt>
            <dd>
              <code>{record.id}</code>
            </dd>
            <dt>{t('audit.field.time')}</dt>
            <dd>{formatTime(record.created_at)}</dd>
            <dt>{t('audit.field.scope')}</dt>
            <dd>
              {record.tenant_id || '*'} / {record.workspace_id || '*'}
            </dd>
            <dt>{t('audit.field.actor')}</dt>
            <dd>
              <code>{record.actor_user_id}</code> ({record.principal_kind})
            </dd>
            <dt>{t('audit.field.action')}</dt>
            <dd>{record.action}</dd>
            <dt>{t('audit.field.resource')}</dt>
            <dd>
              {record.resource_type} <code>{record.resource_id}</code>
            </dd>
            <dt>{t('audit.field.request')}</dt>
            <dd>
              <code>
                {record.method} {record.route}
              </code>
            </dd>
            <dt>{t('audit.field.outcome')}</dt>
            <dd className={record.success ? 'admin-status-ok' : 'admin-status-bad'}>
              {record.success ? t('audit.ok') : t('audit.failed')} ({record.status_code})
            </dd>
            <dt>{t('audit.field.requestId')}</dt>
            <dd>
              <code>{record.request_id}</code>
            </dd>
            <dt>{t('audit.field.client')}</dt>
            <dd>
              {record.client_ip} {record.user_agent}
            </dd>
            {record.sanitised && (
              <>
                <dt>{t('audit.field.sanitised')}</dt>
                <dd>{t('audit.yes')}</dd>
              </>
            )}
          </dl>
          <section aria-labelledby="audit-changes-title">
            <h2 id="audit-changes-title">{t('audit.changes')}</h2>
            {diff.change_count === 0 ? (
              <p>{t('audit.changes.none')}</p>
            ) : (
              <>
                <p>{t('audit.changes.count', { count: diff.change_count })}</p>
                <table className="admin-table" aria-label={t('audit.changes')}>
                  <thead>
                    <tr>
                      <th scope="col">{t('audit.col.path')}</th>
                      <th scope="col">{t('audit.col.change')}</th>
                      <th scope="col">{t('audit.col.values')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {diff.changes.map((c) => (
                      <ChangeRow key={c.path} change={c} />
                    ))}
                  </tbody>
                </table>
              </>
            )}
          </section>
          {record.request_json != null && (
            <details>
              <summary>{t('audit.requestBody')}</summary>
              <pre>
                <code>{JSON.stringify(record.request_json, null, 2)}</code>
              </pre>
            </details>
          )}
        </>
      )}
    </section>
  )
}
