/**
 * Post-change verification of one history entry by an administrator other than its executor: each check of the
 * entry's verification template marked passed, failed or skipped, the result, evidence and notes, with change control
 * (the API's rules: `passed` needs evidence and every required check passed; `failed` needs notes and a failed check).
 */
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import { type HistoryItem, verifyScope } from './api.ts'
import './messages.ts'
import { useGovScope } from './scope-kind.ts'

export function VerifyForm({ entry }: { entry: HistoryItem }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const scope = useGovScope()
  const checks = entry.verification_template.checks
  const [marks, setMarks] = useState<Record<string, string>>(() =>
    Object.fromEntries(checks.map((c) => [c.id, 'passed'])),
  )
  const [status, setStatus] = useState<'passed' | 'failed'>('passed')
  const [evidence, setEvidence] = useState('')
  const [notes, setNotes] = useState('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState('')
  const ref = entry.audit.change_ref
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const res = await verifyScope(scope, entry.audit.id, {
        change_ref: ref,
        reason,
        status,
        notes,
        evidence: evidence.trim() ? [evidence.trim()] : [],
        checks: checks.map((c) => ({ id: c.id, status: marks[c.id] ?? 'passed' })),
      })
      setDone(res.governance_status)
      await client.invalidateQueries({ queryKey: ['governance'] })
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    }
  }
  return (
    <form aria-label={`${t('gov.verify')} ${ref}`} onSubmit={submit}>
      <h3>
        {t('gov.verify')} {ref}
      </h3>
      <fieldset>
        <legend>{t('gov.verify.checks')}</legend>
        {checks.map((c) => (
          <label key={c.id}>
            <span>{c.title}</span>
            <select value={marks[c.id]} onChange={(e) => setMarks({ ...marks, [c.id]: e.target.value })}>
              <option value="passed">{t('gov.verify.passed')}</option>
              <option value="failed">{t('gov.verify.failed')}</option>
              <option value="skipped">{t('gov.verify.skipped')}</option>
            </select>
          </label>
        ))}
      </fieldset>
      <label>
        <span>{t('gov.verify.result')}</span>
        <select value={status} onChange={(e) => setStatus(e.target.value as 'passed' | 'failed')}>
          <option value="passed">{t('gov.verify.passed')}</option>
          <option value="failed">{t('gov.verify.failed')}</option>
        </select>
      </label>
      <label>
        <span>{t('gov.verify.evidence')}</span>
        <input value={evidence} onChange={(e) => setEvidence(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.verify.notes')}</span>
        <input value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <label>
        <span>{t('gov.reason')}</span>
        <input required value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit">{t('gov.verify.do')}</button>
      <ErrorText error={error} />
      {done && (
        <p role="status">
          {t('gov.verify.done')}: {done}
        </p>
      )}
    </form>
  )
}
