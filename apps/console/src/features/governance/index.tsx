/**
 * The configuration section of the admin area (a lazy chunk, `/admin/configuration`): the workspace's portal
 * fields with each one's effective value and the layer it comes from, a change reviewed (its changed paths) before
 * it is sent with change control, the API's risk answer, and the workspace's history with each entry's diff.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import {
  approveWorkspace,
  type Doc,
  type PutAnswer,
  putWorkspace,
  readEntry,
  readHistory,
  readPortal,
  readScope,
  rollbackWorkspace,
} from './api.ts'
import './messages.ts'

/** The portal fields this first cut edits: path under `portal`, label. */
const FIELDS = [
  { path: 'brand_name', label: 'Brand name' },
  { path: 'primary_color', label: 'Primary colour' },
  { path: 'secondary_color', label: 'Secondary colour' },
  { path: 'support_email', label: 'Support e-mail' },
  { path: 'widget.greeting', label: 'Widget greeting' },
  { path: 'widget.offline_message', label: 'Widget offline message' },
] as const

const keys = { all: ['governance'] as const }

function get(doc: unknown, path: string): unknown {
  let cur = doc
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Doc)[part]
  }
  return cur
}

const show = (v: unknown) => (v === undefined || v === null ? '' : String(v))

/** The portal section to send: the workspace's stored portal with the edited fields set (empty → removed). */
function portalBody(stored: Doc, edits: Record<string, string>): Doc {
  const portal = structuredClone((stored.portal ?? {}) as Doc)
  for (const [path, value] of Object.entries(edits)) {
    const [head, tail] = path.split('.') as [string, string | undefined]
    if (tail) {
      const widget = { ...((portal[head] ?? {}) as Doc) }
      if (value === '') delete widget[tail]
      else widget[tail] = value
      portal[head] = widget
    } else if (value === '') delete portal[head]
    else portal[head] = value
  }
  return portal
}

function Diff({ id }: { id: string }) {
  const { t } = useI18n()
  const entry = useQuery({ queryKey: [...keys.all, 'entry', id], queryFn: () => readEntry(id) })
  if (entry.isPending) return <Loading label={t('gov.loading')} />
  if (entry.error) return <ErrorText error={entry.error} />
  const paths = entry.data.change_risk.changed_paths
  return (
    <table className="admin-table" aria-label={`${t('gov.diff')} ${id}`}>
      <thead>
        <tr>
          <th scope="col">{t('gov.paths')}</th>
          <th scope="col">before</th>
          <th scope="col">after</th>
        </tr>
      </thead>
      <tbody>
        {paths.map((p) => (
          <tr key={p}>
            <th scope="row">{p}</th>
            <td>{JSON.stringify(get(entry.data.before, p)) ?? '—'}</td>
            <td>{JSON.stringify(get(entry.data.snapshot, p)) ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Undo one entry: explicit confirmation, change control and the approval ref a second administrator approved. */
function Rollback({ id, changeRef }: { id: string; changeRef: string }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [ref, setRef] = useState('')
  const [approvalRef, setApprovalRef] = useState('')
  const [reason, setReason] = useState('')
  const [confirmed, setConfirmed] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState<PutAnswer | null>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      setDone(await rollbackWorkspace(id, { change_ref: ref, approval_ref: approvalRef, reason }))
      await client.invalidateQueries({ queryKey: keys.all })
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    }
  }
  return (
    <form aria-label={`${t('gov.rollback')} ${changeRef}`} onSubmit={submit}>
      <h3>
        {t('gov.rollback')} {changeRef}
      </h3>
      <p>{t('gov.rollback.explain')}</p>
      <label>
        <span>{t('gov.changeRef')}</span>
        <input required value={ref} onChange={(e) => setRef(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.approvalRef')}</span>
        <input required value={approvalRef} onChange={(e) => setApprovalRef(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.reason')}</span>
        <input required value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <label>
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
        <span>{t('gov.rollback.confirm')}</span>
      </label>
      <button type="submit" disabled={!confirmed}>
        {t('gov.rollback.do')}
      </button>
      <ErrorText error={error} />
      {done && (
        <p role="status">
          {t('gov.rollback.done')}: {done.change_risk.changed_paths.join(', ')}
        </p>
      )}
    </form>
  )
}

/** A second administrator approves a change ref + approval ref; the executor's own approval is refused on use. */
function Approve() {
  const { t } = useI18n()
  const [ref, setRef] = useState('')
  const [approvalRef, setApprovalRef] = useState('')
  const [notes, setNotes] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState('')
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setDone('')
    try {
      await approveWorkspace({ change_ref: ref, approval_ref: approvalRef, reason: notes, notes })
      setDone(`${ref} / ${approvalRef}`)
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    }
  }
  return (
    <form aria-labelledby="gov-approve-title" onSubmit={submit}>
      <h2 id="gov-approve-title">{t('gov.approve.title')}</h2>
      <p>{t('gov.approve.explain')}</p>
      <label>
        <span>{t('gov.approve.changeRef')}</span>
        <input required value={ref} onChange={(e) => setRef(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.approve.approvalRef')}</span>
        <input required value={approvalRef} onChange={(e) => setApprovalRef(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.approve.notes')}</span>
        <input required value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <button type="submit">{t('gov.approve.do')}</button>
      <ErrorText error={error} />
      {done && (
        <p role="status">
          {t('gov.approve.done')}: {done}
        </p>
      )}
    </form>
  )
}

function History() {
  const { t, formatTime } = useI18n()
  const [open, setOpen] = useState<string | null>(null)
  const [rollback, setRollback] = useState<{ id: string; ref: string } | null>(null)
  const history = useQuery({ queryKey: [...keys.all, 'history'], queryFn: readHistory })
  return (
    <section aria-labelledby="gov-history-title">
      <h2 id="gov-history-title">{t('gov.history')}</h2>
      <ErrorText error={history.error} />
      {history.data && (
        <table className="admin-table" aria-label={t('gov.historyTable')}>
          <thead>
            <tr>
              <th scope="col">{t('gov.when')}</th>
              <th scope="col">{t('gov.changeRef')}</th>
              <th scope="col">{t('gov.paths')}</th>
              <th scope="col">{t('gov.risk')}</th>
              <th scope="col">{t('gov.status')}</th>
              <th scope="col">{t('gov.diff')}</th>
              <th scope="col">{t('gov.rollback')}</th>
            </tr>
          </thead>
          <tbody>
            {history.data.data.map((h) => (
              <tr key={h.audit.id}>
                <td>{formatTime(h.audit.created_at)}</td>
                <td>{h.audit.change_ref}</td>
                <td>{h.change_risk.changed_paths.join(', ')}</td>
                <td>{h.change_risk.risk_level}</td>
                <td>{h.governance_status}</td>
                <td>
                  <button
                    type="button"
                    aria-expanded={open === h.audit.id}
                    aria-label={`${t('gov.showDiff')} ${h.audit.change_ref}`}
                    onClick={() => setOpen(open === h.audit.id ? null : h.audit.id)}
                  >
                    {t('gov.showDiff')}
                  </button>
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`${t('gov.rollback')} ${h.audit.change_ref}`}
                    onClick={() => setRollback({ id: h.audit.id, ref: h.audit.change_ref })}
                  >
                    {t('gov.rollback')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <Diff id={open} />}
      {rollback && <Rollback key={rollback.id} id={rollback.id} changeRef={rollback.ref} />}
      <Approve />
    </section>
  )
}

export function GovernanceScreen() {
  const { t } = useI18n()
  const client = useQueryClient()
  const workspace = useQuery({ queryKey: [...keys.all, 'workspace'], queryFn: () => readScope('workspace') })
  const tenant = useQuery({ queryKey: [...keys.all, 'tenant'], queryFn: () => readScope('tenant') })
  const portal = useQuery({ queryKey: [...keys.all, 'portal'], queryFn: readPortal })
  const [edits, setEdits] = useState<Record<string, string>>({})
  const [reviewing, setReviewing] = useState(false)
  const [changeRef, setChangeRef] = useState('')
  const [reason, setReason] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [answer, setAnswer] = useState<PutAnswer | null>(null)

  const ready = workspace.data && tenant.data && portal.data
  const effective = (path: string) => show(get(portal.data, path))
  const sourceOf = (path: string) =>
    get(workspace.data?.config.portal, path) !== undefined
      ? t('gov.source.workspace')
      : get(tenant.data?.config.portal, path) !== undefined
        ? t('gov.source.tenant')
        : t('gov.source.system')
  const changed = Object.entries(edits).filter(([p, v]) => v !== effective(p))

  async function apply(e: FormEvent) {
    e.preventDefault()
    if (!workspace.data) return
    setSending(true)
    setError(null)
    try {
      const portalSection = portalBody(workspace.data.config, Object.fromEntries(changed))
      const res = await putWorkspace({ portal: portalSection, change_ref: changeRef, reason })
      setAnswer(res)
      setEdits({})
      setReviewing(false)
      setChangeRef('')
      setReason('')
      await client.invalidateQueries({ queryKey: keys.all })
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    } finally {
      setSending(false)
    }
  }

  return (
    <section className="admin-page" aria-labelledby="gov-title">
      <h1 id="gov-title">{t('gov.title')}</h1>
      <ErrorText error={workspace.error ?? tenant.error ?? portal.error} />
      {!ready && !(workspace.error || tenant.error || portal.error) && <Loading label={t('gov.loading')} />}
      {answer && (
        <p role="status" className="gov-answer">
          {t('gov.applied')}: {t('gov.risk')} {answer.change_risk.risk_level} —{' '}
          {answer.change_risk.changed_paths.join(', ')} ({answer.governance_status})
        </p>
      )}
      {ready && (
        <form aria-labelledby="gov-portal-title" onSubmit={apply}>
          <h2 id="gov-portal-title">{t('gov.portal')}</h2>
          <table className="admin-table" aria-label={t('gov.portal')}>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
                <th scope="col">{t('gov.source')}</th>
              </tr>
            </thead>
            <tbody>
              {FIELDS.map((f) => (
                <tr key={f.path}>
                  <th scope="row">
                    <label htmlFor={`gov-${f.path}`}>{f.label}</label>
                  </th>
                  <td>
                    <input
                      id={`gov-${f.path}`}
                      value={edits[f.path] ?? effective(f.path)}
                      onChange={(e) => {
                        setEdits({ ...edits, [f.path]: e.target.value })
                        setReviewing(false)
                      }}
                    />
                  </td>
                  <td data-source={f.path}>{sourceOf(`${f.path}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" disabled={changed.length === 0} onClick={() => setReviewing(true)}>
              {t('gov.review')}
            </button>
          </p>
          {reviewing && (
            <section aria-labelledby="gov-review-title">
              <h3 id="gov-review-title">{t('gov.changes')}</h3>
              {changed.length === 0 ? (
                <p>{t('gov.noChanges')}</p>
              ) : (
                <ul aria-label={t('gov.paths')}>
                  {changed.map(([p, v]) => (
                    <li key={p}>
                      portal.{p}: {JSON.stringify(effective(p))} → {JSON.stringify(v)}
                    </li>
                  ))}
                </ul>
              )}
              <label>
                <span>{t('gov.changeRef')}</span>
                <input required value={changeRef} onChange={(e) => setChangeRef(e.target.value)} />
              </label>
              <label>
                <span>{t('gov.reason')}</span>
                <input required value={reason} onChange={(e) => setReason(e.target.value)} />
              </label>
              <button type="submit" disabled={sending || changed.length === 0}>
                {t('gov.apply')}
              </button>
            </section>
          )}
          <ErrorText error={error} />
        </form>
      )}
      <History />
    </section>
  )
}
