/** Log in: username or email and password; the tenant/workspace fields appear when the API asks for a choice. */
import { type FormEvent, useState } from 'react'
import { type ScopeChoice, useAuth } from '../../lib/auth.tsx'
import { ApiError } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { Field } from '../../ui/field.tsx'
import './messages.ts'

function errorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'login.error.other'
  if (error.status === 0) return 'login.error.network'
  if (error.status === 401) return 'login.error.credentials'
  if (error.code === 'IDENTITY_SCOPE_NOT_BOUND') return 'login.error.notBound'
  if (error.status === 403) return 'login.error.inactive'
  if (error.status === 429) return 'login.error.rateLimited'
  return 'login.error.other'
}

export function LoginPage() {
  const { t } = useI18n()
  const { login } = useAuth()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [tenant, setTenant] = useState('')
  const [workspace, setWorkspace] = useState('')
  const [askScope, setAskScope] = useState(false)
  const [choices, setChoices] = useState<ScopeChoice[]>([])
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await login({ username, password, tenant_id: tenant.trim(), workspace_id: workspace.trim() })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'IDENTITY_SCOPE_REQUIRED') {
        const scopes = Array.isArray(err.body.scopes) ? (err.body.scopes as ScopeChoice[]) : []
        setChoices(scopes)
        if (scopes[0]) {
          setTenant(scopes[0].tenant_id)
          setWorkspace(scopes[0].workspace_id)
        }
        setAskScope(true)
      } else {
        setError(t(errorKey(err), { message: err instanceof Error ? err.message : String(err) }))
      }
      setBusy(false)
    }
  }

  return (
    <main>
      <form className="login" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">{t('login.title')}</h1>
        <Field
          label={t('login.username')}
          name="username"
          autoComplete="username"
          placeholder={t('login.usernameHint')}
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <Field
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {askScope && <p role="status">{t('login.chooseScope')}</p>}
        {askScope && choices.length > 0 && (
          <label>
            <span>{t('login.workspace')}</span>
            <select
              name="scope"
              value={`${tenant}/${workspace}`}
              onChange={(e) => {
                const [tenantId = '', workspaceId = ''] = e.target.value.split('/')
                setTenant(tenantId)
                setWorkspace(workspaceId)
              }}
            >
              {choices.map((c) => (
                <option key={`${c.tenant_id}/${c.workspace_id}`} value={`${c.tenant_id}/${c.workspace_id}`}>
                  {`${c.tenant_name || c.tenant_id} / ${c.workspace_name || c.workspace_id}`}
                </option>
              ))}
            </select>
          </label>
        )}
        {askScope && choices.length === 0 && (
          <fieldset>
            <legend>{t('login.workspace')}</legend>
            <Field
              label={t('login.tenant')}
              name="tenant_id"
              value={tenant}
              onChange={(e) => setTenant(e.target.value)}
            />
            <Field
              label={t('login.workspace')}
              name="workspace_id"
              value={workspace}
              onChange={(e) => setWorkspace(e.target.value)}
            />
          </fieldset>
        )}
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {t('login.submit')}
        </button>
      </form>
    </main>
  )
}
