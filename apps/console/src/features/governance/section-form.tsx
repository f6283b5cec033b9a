/**
 * One high-risk section of the workspace's or the tenant's document (LLM, knowledge provider, session risk) as a form: each field's effective
 * value and the layer it comes from (runtime > workspace > tenant > system > default, as the effective view of the
 * API says), secrets never shown back (only whether one is in effect, from which layer, and a stored one's
 * fingerprint). Review asks the
 * API what the change would do (risk, changed paths, before → after) before anything is sent; a change needing
 * approval is then proposed to wait for a second administrator, any other applied at once.
 */
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import {
  type Doc,
  type EffectiveField,
  type Preview,
  previewScope,
  proposeScope,
  putScope,
  type ScopeConfig,
} from './api.ts'
import { setPath, show } from './doc.ts'
import { type FieldDef, fieldValue, type SectionKey } from './fields.ts'
import './messages.ts'
import { useGovScope } from './scope-kind.ts'

const asError = (err: unknown) => (err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)

export function SectionForm(props: {
  section: SectionKey
  fields: readonly FieldDef[]
  /** the document edited: the workspace's or the tenant's (the screen's scope) */
  stored: ScopeConfig
  workspace: ScopeConfig | undefined
  tenant: ScopeConfig
  /** the scope's effective fields by full path; a section whose owner did not answer has none */
  effective: ReadonlyMap<string, EffectiveField>
}) {
  const { section, fields, stored, workspace, tenant } = props
  const scope = useGovScope()
  const { t } = useI18n()
  const client = useQueryClient()
  // PUT / preview / proposals need security.write (the API checks): a reader sees the values, not the controls
  const canWrite = useAccess().has('security.write')
  const [edits, setEdits] = useState<Record<string, string | boolean>>({})
  const [preview, setPreview] = useState<Preview | null>(null)
  const [changeRef, setChangeRef] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState('')
  const title = t(`gov.section.${section}`)
  const full = (f: FieldDef) => `${section}.${f.path}`
  const layer = (f: FieldDef) => props.effective.get(full(f))?.source ?? 'unavailable'
  const effective = (f: FieldDef) => props.effective.get(full(f))?.value
  const secretState = (f: FieldDef) => {
    const e = props.effective.get(full(f))
    if (!e) return ''
    // a stored key's fingerprint tells whether it changed; the system's key has none to show
    const fp =
      e.source === 'workspace'
        ? workspace?.secrets[full(f)]
        : e.source === 'tenant'
          ? tenant.secrets[full(f)]
          : undefined
    return `${t(e.set ? 'gov.secret.inEffect' : 'gov.secret.none')}${fp ? ` (${fp})` : ''}`
  }

  /** The section to send: the scope's stored one (secrets as "[REDACTED]", which keeps them) with the edits. */
  function body(): Doc {
    let doc = structuredClone((stored.config[section] ?? {}) as Doc)
    for (const f of fields) {
      const raw = edits[f.path]
      if (raw === undefined || (f.kind === 'secret' && raw === '')) continue
      doc = setPath(doc, f.path, fieldValue(f, raw))
    }
    return { [section]: doc }
  }
  const edit = (path: string, value: string | boolean) => {
    setEdits({ ...edits, [path]: value })
    setPreview(null)
    setDone('')
  }

  async function review() {
    setError(null)
    try {
      setPreview(await previewScope(scope, body()))
    } catch (err) {
      setError(asError(err))
    }
  }
  async function send(e: FormEvent) {
    e.preventDefault()
    if (!preview) return
    setBusy(true)
    setError(null)
    try {
      const cc = { change_ref: changeRef, reason }
      if (preview.change_risk.approval_required) {
        const p = await proposeScope(scope, { ...body(), ...cc })
        setDone(`${t('gov.proposed')}: ${p.diff.changed_paths.join(', ')}`)
      } else {
        const res = await putScope(scope, { ...body(), ...cc })
        setDone(
          `${t('gov.applied')}: ${t('gov.risk')} ${res.change_risk.risk_level} — ${res.change_risk.changed_paths.join(', ')}`,
        )
      }
      setEdits({})
      setPreview(null)
      setChangeRef('')
      setReason('')
      await client.invalidateQueries({ queryKey: ['governance'] })
    } catch (err) {
      setError(asError(err))
    } finally {
      setBusy(false)
    }
  }

  const id = `gov-${section}`
  return (
    <form aria-labelledby={`${id}-title`} onSubmit={send}>
      <h2 id={`${id}-title`}>{title}</h2>
      <table className="admin-table" aria-label={title}>
        <thead>
          <tr>
            <th scope="col">{t('gov.field')}</th>
            <th scope="col">{t('gov.value')}</th>
            <th scope="col">{t('gov.source')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const label = t(`gov.f.${section}.${f.path}`)
            const inputId = `${id}-${f.path}`
            const raw = edits[f.path]
            return (
              <tr key={f.path}>
                <th scope="row">
                  <label htmlFor={inputId}>{label}</label>
                </th>
                <td>
                  {f.kind === 'boolean' ? (
                    <input
                      id={inputId}
                      type="checkbox"
                      checked={raw === undefined ? effective(f) === true : raw === true}
                      onChange={(e) => edit(f.path, e.target.checked)}
                    />
                  ) : f.kind === 'choice' ? (
                    <select
                      id={inputId}
                      value={raw === undefined ? show(effective(f)) : String(raw)}
                      onChange={(e) => edit(f.path, e.target.value)}
                    >
                      <option value="">—</option>
                      {f.options?.map((o) => (
                        <option key={o} value={o}>
                          {o}
                        </option>
                      ))}
                    </select>
                  ) : f.kind === 'secret' ? (
                    <>
                      <input
                        id={inputId}
                        type="password"
                        autoComplete="off"
                        aria-describedby={`${inputId}-state`}
                        value={String(raw ?? '')}
                        onChange={(e) => edit(f.path, e.target.value)}
                      />
                      <span id={`${inputId}-state`}> {secretState(f)}</span>
                    </>
                  ) : (
                    <input
                      id={inputId}
                      type={f.kind === 'number' ? 'number' : f.kind === 'url' ? 'url' : 'text'}
                      value={raw === undefined ? show(effective(f)) : String(raw)}
                      onChange={(e) => edit(f.path, e.target.value)}
                    />
                  )}
                </td>
                <td data-source={full(f)}>{t(`gov.source.${layer(f)}`)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {canWrite && (
        <p>
          <button type="button" disabled={Object.keys(edits).length === 0} onClick={review}>
            {t('gov.reviewSection', { section: title })}
          </button>
        </p>
      )}
      {preview && (
        <section aria-label={t('gov.reviewOf', { section: title })}>
          <p>
            {t('gov.risk')}: <strong>{preview.change_risk.risk_level}</strong>
            {preview.change_risk.approval_required ? ` — ${t('gov.needsApproval')}` : ''}
          </p>
          {preview.diff.changes.length === 0 ? (
            <p>{t('gov.noChanges')}</p>
          ) : (
            <ul aria-label={t('gov.paths')}>
              {preview.diff.changes.map((c) => (
                <li key={c.path}>
                  {c.path}: {JSON.stringify(c.before)} → {JSON.stringify(c.after)}
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
          <button type="submit" disabled={busy || preview.diff.changes.length === 0}>
            {preview.change_risk.approval_required ? t('gov.propose') : t('gov.apply')}
          </button>
        </section>
      )}
      <ErrorText error={error} />
      {done && <p role="status">{done}</p>}
    </form>
  )
}
