/**
 * The Approvals list: the workspace's high-risk changes waiting for a second administrator, each with its proposer,
 * risk and diff. Approve / Reject are shown to whoever the API lets decide (its `actions`: anyone but the proposer);
 * the proposer sees its change waiting and may withdraw it. The API refuses the rest anyway.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText } from '../../ui/status.tsx'
import { decidePending, type Pending, readPending } from './api.ts'
import './messages.ts'
import { scopeKeys, useGovScope } from './scope-kind.ts'

function PendingChange({ p }: { p: Pending }) {
  const { t, formatTime } = useI18n()
  const client = useQueryClient()
  const scope = useGovScope()
  const [notes, setNotes] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const ref = p.change_control.change_ref
  async function decide(verb: 'approve' | 'reject' | 'withdraw') {
    setBusy(true)
    setError(null)
    try {
      await decidePending(scope, p.id, verb, notes)
      await client.invalidateQueries({ queryKey: ['governance'] })
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    } finally {
      setBusy(false)
    }
  }
  // the API's actions for this caller, and the permission its writes need (security.write)
  const writer = useAccess().has('security.write')
  const can = {
    approve: writer && p.actions.approve,
    reject: writer && p.actions.reject,
    withdraw: writer && p.actions.withdraw,
  }
  return (
    <li>
      <article aria-labelledby={`pending-${p.id}`}>
        <h3 id={`pending-${p.id}`}>
          {t('gov.pending.change')} {ref}
        </h3>
        <dl className="gov-facts">
          <dt>{t('gov.pending.proposer')}</dt>
          <dd>{p.proposer_user_id}</dd>
          <dt>{t('gov.risk')}</dt>
          <dd>{p.change_risk.risk_level}</dd>
          <dt>{t('gov.reason')}</dt>
          <dd>{p.change_control.reason}</dd>
          <dt>{t('gov.when')}</dt>
          <dd>{formatTime(p.created_at)}</dd>
        </dl>
        <table className="admin-table" aria-label={`${t('gov.diff')} ${ref}`}>
          <thead>
            <tr>
              <th scope="col">{t('gov.paths')}</th>
              <th scope="col">{t('gov.before')}</th>
              <th scope="col">{t('gov.after')}</th>
            </tr>
          </thead>
          <tbody>
            {p.diff.changes.map((c) => (
              <tr key={c.path}>
                <th scope="row">{c.path}</th>
                <td>{JSON.stringify(c.before)}</td>
                <td>{JSON.stringify(c.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {can.withdraw && <p role="status">{t('gov.pending.waiting')}</p>}
        {(can.approve || can.reject || can.withdraw) && (
          <label>
            <span>{t('gov.pending.notes', { ref })}</span>
            <input value={notes} onChange={(e) => setNotes(e.target.value)} />
          </label>
        )}
        <p className="gov-actions">
          {can.approve && (
            <button type="button" disabled={busy || !notes.trim()} onClick={() => decide('approve')}>
              {t('gov.pending.approve', { ref })}
            </button>
          )}
          {can.reject && (
            <button type="button" disabled={busy || !notes.trim()} onClick={() => decide('reject')}>
              {t('gov.pending.reject', { ref })}
            </button>
          )}
          {can.withdraw && (
            <button type="button" disabled={busy} onClick={() => decide('withdraw')}>
              {t('gov.pending.withdraw', { ref })}
            </button>
          )}
        </p>
        <ErrorText error={error} />
      </article>
    </li>
  )
}

export function Approvals() {
  const { t } = useI18n()
  // another administrator's proposal shows up while the screen is open
  const scope = useGovScope()
  const pending = useQuery({
    queryKey: [...scopeKeys(scope), 'pending'],
    queryFn: () => readPending(scope),
    refetchInterval: 5000,
  })
  return (
    <section aria-labelledby="gov-approvals-title">
      <h2 id="gov-approvals-title">{t('gov.approvals')}</h2>
      <ErrorText error={pending.error} />
      {pending.data &&
        (pending.data.data.length === 0 ? (
          <EmptyState>{t('gov.approvals.none')}</EmptyState>
        ) : (
          <ul aria-label={t('gov.approvals')} className="gov-pending">
            {pending.data.data.map((p) => (
              <PendingChange key={p.id} p={p} />
            ))}
          </ul>
        ))}
    </section>
  )
}
