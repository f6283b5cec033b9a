/**
 * The audit log: the service's filters (action, resource, principal kind, actor, outcome, date range) applied with
 * "Apply filters", one page of PAGE_SIZE records at a time (the service paginates, newest first), each row opening
 * the record; "Download CSV" saves the service's CSV of the same filters.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { type AuditFilters, auditKeys, exportAuditCsv, listAudit, NO_FILTERS } from './api.ts'
import './messages.ts'

const PRINCIPALS = ['admin', 'agent', 'service', 'end_user', 'anonymous']

function Text({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      <span>{label}</span>
      <input value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  )
}

export function AuditList({
  filters,
  page,
  onApply,
  onPage,
}: {
  filters: AuditFilters
  page: number
  onApply: (filters: AuditFilters) => void
  onPage: (page: number) => void
}) {
  const { t, formatTime } = useI18n()
  const [draft, setDraft] = useState(filters)
  const [exporting, setExporting] = useState<'idle' | 'busy' | 'done'>('idle')
  const [exportError, setExportError] = useState<unknown>(null)
  const set = (patch: Partial<AuditFilters>) => setDraft((d) => ({ ...d, ...patch }))
  const list = useQuery({
    queryKey: auditKeys.list(filters, page),
    queryFn: ({ signal }) => listAudit(filters, page, signal),
    placeholderData: keepPreviousData,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onApply(draft)
  }
  const download = async () => {
    setExporting('busy')
    setExportError(null)
    try {
      const blob = await exportAuditCsv(filters)
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = 'audit-logs.csv'
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
      setExporting('done')
    } catch (err) {
      setExportError(err)
      setExporting('idle')
    }
  }
  const data = list.data
  return (
    <section className="admin-page" aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form className="admin-toolbar" aria-label={t('audit.filters')} onSubmit={submit}>
        <Text label={t('audit.filter.action')} value={draft.action} onChange={(action) => set({ action })} />
        <Text label={t('audit.filter.resource')} value={draft.resource} onChange={(resource) => set({ resource })} />
        <label>
          <span>{t('audit.filter.principal')}</span>
          <select value={draft.principal} onChange={(e) => set({ principal: e.target.value })}>
            <option value="">{t('audit.filter.any')}</option>
            {PRINCIPALS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <Text label={t('audit.filter.actor')} value={draft.actor} onChange={(actor) => set({ actor })} />
        <label>
          <span>{t('audit.filter.success')}</span>
          <select value={draft.success} onChange={(e) => set({ success: e.target.value as AuditFilters['success'] })}>
            <option value="">{t('audit.filter.any')}</option>
            <option value="true">{t('audit.filter.succeeded')}</option>
            <option value="false">{t('audit.filter.failed')}</option>
          </select>
        </label>
        <label>
          <span>{t('audit.filter.from')}</span>
          <input type="date" value={draft.start_date} onChange={(e) => set({ start_date: e.target.value })} />
        </label>
        <label>
          <span>{t('audit.filter.to')}</span>
          <input type="date" value={draft.end_date} onChange={(e) => set({ end_date: e.target.value })} />
        </label>
        <button type="submit" className="primary">
          {t('audit.apply')}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS)
            onApply(NO_FILTERS)
          }}
        >
          {t('audit.clear')}
        </button>
        <button type="button" onClick={() => void download()} disabled={exporting === 'busy'}>
          {t('audit.export')}
        </button>
        <span role="status" aria-live="polite">
          {exporting === 'busy' ? t('audit.exporting') : exporting === 'done' ? t('audit.exported') : ''}
        </span>
      </form>
      <ErrorText error={exportError} />
      <ErrorText error={list.error} />
      {list.isPending ? (
        <Loading label={t('audit.loading')} />
      ) : data && data.data.length === 0 ? (
        <EmptyState>{t('audit.empty')}</EmptyState>
      ) : data ? (
        <>
          <p>{t('audit.total', { count: data.total })}</p>
          <table className="admin-table" aria-label={t('audit.list')}>
            <thead>
              <tr>
                <th scope="col">{t('audit.col.time')}</th>
                <th scope="col">{t('audit.col.action')}</th>
                <th scope="col">{t('audit.col.resource')}</th>
                <th scope="col">{t('audit.col.actor')}</th>
                <th scope="col">{t('audit.col.outcome')}</th>
                <th scope="col">{t('audit.col.status')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((r) => (
                <tr key={r.id}>
                  <td>{formatTime(r.created_at)}</td>
                  <td>
                    <Link href={`/admin/audit/${encodeURIComponent(r.id)}`}>{r.action}</Link>
                  </td>
                  <td>
                    {r.resource_type}
                    {r.resource_id ? <code> {r.resource_id}</code> : null}
                  </td>
                  <td>
                    <code>{r.actor_user_id}</code> ({r.principal_kind})
                  </td>
                  <td className={r.success ? 'admin-status-ok' : 'admin-status-bad'}>
                    {r.success ? t('audit.ok') : t('audit.failed')}
                  </td>
                  <td>{r.status_code}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="admin-pager" aria-label={t('audit.pageOf', { page: data.page, pages: data.pages })}>
            <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
              {t('audit.prev')}
            </button>
            <span>{t('audit.pageOf', { page: data.page, pages: Math.max(1, data.pages) })}</span>
            <button type="button" disabled={page >= data.pages} onClick={() => onPage(page + 1)}>
              {t('audit.next')}
            </button>
          </nav>
        </>
      ) : null}
    </section>
  )
}
