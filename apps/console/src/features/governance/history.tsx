/**
 * The workspace's configuration history: each entry's diff, verification by another administrator against the
 * entry's template of checks, rollback with explicit confirmation, and the approval (by a second administrator) a
 * rollback needs.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useAuth } from '../../lib/auth.tsx'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { approveScope, type HistoryItem, type PutAnswer, readEntry, readHistory, rollbackScope } from './api.ts'
import { get } from './doc.ts'
import { VerifyForm } from './verify.tsx'
import './messages.ts'
import { scopeKeys, useGovScope } from './scope-kind.ts'

const keys = { all: ['governance'] as const }

function Diff({ id }: { id: string }) {
  const { t } = useI18n()
  const scope = useGovScope()
  const entry = useQuery({ queryKey: [...scopeKeys(scope), 'entry', id], queryFn: () => readEntry(scope, id) })
  if (entry.isPending) return <Loading label={t('gov.loading')} />
  if (entry.error) return <ErrorText error={entry.error} />
  const paths = entry.data.change_risk.changed_paths
  return (
    <table className="admin-table" aria-label={`${t('gov.diff')} ${id}`}>
      <thead>
        <tr>
          <th scope="col">{t('gov.paths')}</th>
          <th scope="col">{t('gov.before')}</th>
          <th scope="col">{t('gov.after')}</th>
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
  const scope = useGovScope()
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
      setDone(await rollbackScope(scope, id, { change_ref: ref, approval_ref: approvalRef, reason }))
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
  const scope = useGovScope()
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
      await approveScope(scope, { change_ref: ref, approval_ref: approvalRef, reason: notes, notes })
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

export function History() {
  const { t, formatTime } = useI18n()
  const [open, setOpen] = useState<string | null>(null)
  const [rollback, setRollback] = useState<{ id: string; ref: string } | null>(null)
  const [verify, setVerify] = useState<string | null>(null)
  const me = useAuth().user?.id ?? ''
  const canWrite = useAccess().has('security.write')
  const scope = useGovScope()
  const history = useQuery({ queryKey: [...scopeKeys(scope), 'history'], queryFn: () => readHistory(scope) })
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
              <th scope="col">{t('gov.verify')}</th>
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
                  {/* the API refuses the executor's own verification: not offered to it */}
                  {canWrite &&
                    h.verification_status === 'pending' &&
                    h.needs_action &&
                    h.audit.actor_user_id !== me && (
                      <button
                        type="button"
                        aria-expanded={verify === h.audit.id}
                        aria-label={`${t('gov.verify')} ${h.audit.change_ref}`}
                        onClick={() => setVerify(verify === h.audit.id ? null : h.audit.id)}
                      >
                        {t('gov.verify')}
                      </button>
                    )}
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
      {verify && history.data?.data.some((h) => h.audit.id === verify) && (
        <VerifyForm key={verify} entry={history.data.data.find((h) => h.audit.id === verify) as HistoryItem} />
      )}
      {rollback && <Rollback key={rollback.id} id={rollback.id} changeRef={rollback.ref} />}
      <Approve />
    </section>
  )
}
