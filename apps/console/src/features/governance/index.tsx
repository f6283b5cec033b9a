/**
 * The configuration section of the admin area (a lazy chunk, `/admin/configuration`): the approvals waiting for a
 * second administrator; the scope's portal fields and its high-risk sections (section-form.tsx), each field with its
 * effective value and the layer it comes from (`GET …/{workspace|tenant}/effective`: config-governance asks the
 * services that apply each section, so system values and code defaults are real, not guessed), a change reviewed (the
 * API's computed risk and its changed paths) before it is sent with change control; and the scope's history
 * (history.tsx) with diffs, verification and rollback. The scope: the session's workspace, its tenant for a
 * tenant-level session, or what a platform operator's session (no tenant) picked (scope-pick.tsx).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { ALL, type Scope } from '../../lib/scope-picker.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import {
  type ChangeRisk,
  type Doc,
  type GovScope,
  type PutAnswer,
  previewScope,
  putScope,
  readEffective,
  readScope,
  sessionScope,
  tenantOf,
} from './api.ts'
import { Approvals } from './approvals.tsx'
import { show } from './doc.ts'
import { SECTIONS } from './fields.ts'
import { History } from './history.tsx'
import './messages.ts'
import { ScopeKindContext, scopeKeys } from './scope-kind.ts'
import { GovScopePicker, pickedScope } from './scope-pick.tsx'
import { SectionForm } from './section-form.tsx'

/** The portal fields this first cut edits: path under `portal`, label. */
const FIELDS = [
  { path: 'brand_name', label: 'Brand name' },
  { path: 'primary_color', label: 'Primary colour' },
  { path: 'secondary_color', label: 'Secondary colour' },
  { path: 'support_email', label: 'Support e-mail' },
  { path: 'widget.greeting', label: 'Widget greeting' },
  { path: 'widget.offline_message', label: 'Widget offline message' },
] as const

/** The portal section to send: the scope's stored portal with the edited fields set (empty → removed). */
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

/** The scope worked on, said on the page: a workspace's document, or a tenant's. */
function ScopeLine({ scope }: { scope: GovScope }) {
  const { t } = useI18n()
  const { kind, tenant, workspace } = scope
  return (
    <p>{kind === 'tenant' ? t('gov.scope.tenant', { tenant }) : t('gov.scope.workspace', { tenant, workspace })}</p>
  )
}

/**
 * The document the session may write: its workspace's, or for a tenant-level session (a tenant named, no workspace:
 * a tenant administrator's tenant-wide login) the tenant's, the layer under every workspace. A platform operator's
 * session (no tenant) picks a tenant or one of its workspaces first (scope-pick.tsx).
 */
export function GovernanceScreen(_props: { path: string }) {
  const { t } = useI18n()
  const own = sessionScope()
  const [picked, setPicked] = useState<Scope>(ALL)
  const scope = own ?? pickedScope(picked)
  return (
    <section className="admin-page" aria-labelledby="gov-title">
      <h1 id="gov-title">{t('gov.title')}</h1>
      {own ? null : <GovScopePicker scope={picked} onChange={setPicked} />}
      {scope ? (
        <ScopeKindContext.Provider value={scope}>
          <ScopeScreen key={scopeKeys(scope).join('/')} scope={scope} />
        </ScopeKindContext.Provider>
      ) : (
        <p>{t('gov.pick.first')}</p>
      )}
    </section>
  )
}

function ScopeScreen({ scope }: { scope: GovScope }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const keys = { all: scopeKeys(scope) }
  const stored = useQuery({ queryKey: [...keys.all, 'stored'], queryFn: () => readScope(scope) })
  const tenant = useQuery({ queryKey: [...keys.all, 'tenant'], queryFn: () => readScope(tenantOf(scope)) })
  const view = useQuery({ queryKey: [...keys.all, 'effective'], queryFn: () => readEffective(scope) })
  const workspace = scope.kind === 'workspace' ? stored : undefined
  const [edits, setEdits] = useState<Record<string, string>>({})
  const [reviewing, setReviewing] = useState(false)
  const [risk, setRisk] = useState<ChangeRisk | null>(null)
  const [changeRef, setChangeRef] = useState('')
  const [reason, setReason] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [answer, setAnswer] = useState<PutAnswer | null>(null)

  const ready = stored.data && tenant.data && view.data
  /** each field in effect by its full path (`portal.brand_name`), as the API computed it */
  const fields = new Map((view.data?.fields ?? []).map((f) => [f.path, f]))
  const effective = (path: string) => show(fields.get(`portal.${path}`)?.value)
  const sourceOf = (path: string) => t(`gov.source.${fields.get(`portal.${path}`)?.source ?? 'unavailable'}`)
  const changed = Object.entries(edits).filter(([p, v]) => v !== effective(p))

  /** The API's risk of the edited portal, asked before anything is sent. */
  async function review() {
    if (!stored.data) return
    setReviewing(true)
    setRisk(null)
    setError(null)
    try {
      const portalSection = portalBody(stored.data.config, Object.fromEntries(changed))
      setRisk((await previewScope(scope, { portal: portalSection })).change_risk)
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    }
  }

  async function apply(e: FormEvent) {
    e.preventDefault()
    if (!stored.data) return
    setSending(true)
    setError(null)
    try {
      const portalSection = portalBody(stored.data.config, Object.fromEntries(changed))
      const res = await putScope(scope, { portal: portalSection, change_ref: changeRef, reason })
      setAnswer(res)
      setEdits({})
      setReviewing(false)
      setChangeRef('')
      setReason('')
      await client.invalidateQueries({ queryKey: ['governance'] })
    } catch (err) {
      setError(err instanceof ApiError ? new Error(`${err.code}: ${err.message}`) : err)
    } finally {
      setSending(false)
    }
  }

  return (
    <>
      <ScopeLine scope={scope} />
      <ErrorText error={stored.error ?? tenant.error ?? view.error} />
      {!ready && !(stored.error || tenant.error || view.error) && <Loading label={t('gov.loading')} />}
      {answer && (
        <p role="status" className="gov-answer">
          {t('gov.applied')}: {t('gov.risk')} {answer.change_risk.risk_level} —{' '}
          {answer.change_risk.changed_paths.join(', ')} ({answer.governance_status})
        </p>
      )}
      <Approvals />
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
                        setRisk(null)
                      }}
                    />
                  </td>
                  <td data-source={f.path}>{sourceOf(`${f.path}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" disabled={changed.length === 0} onClick={review}>
              {t('gov.review')}
            </button>
          </p>
          {reviewing && (
            <section aria-labelledby="gov-review-title">
              <h3 id="gov-review-title">{t('gov.changes')}</h3>
              {risk && (
                <p>
                  {t('gov.risk')}: <strong>{risk.risk_level}</strong>
                  {risk.approval_required ? ` — ${t('gov.needsApproval')}` : ''}
                </p>
              )}
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
      {view.data?.unavailable.map((u) => (
        <p key={u.section} role="note">
          {t('gov.unavailable', { section: t(`gov.section.${u.section}`), service: u.service, code: u.code })}
        </p>
      ))}
      {stored.data &&
        tenant.data &&
        view.data &&
        SECTIONS.map((s) => (
          <SectionForm
            key={s.key}
            section={s.key}
            fields={s.fields}
            stored={stored.data}
            workspace={workspace?.data}
            tenant={tenant.data}
            effective={fields}
          />
        ))}
      <History />
    </>
  )
}
