/**
 * `/set-password?token=…`: where the one-time link of a person created without a password (People, "Add a
 * person") leads. The person chooses a password, which identity's anonymous `POST /api/v1/auth/set-password
 * {token, password}` sets (single use, 24 h); then "Go to log in". Shown whether or not someone is signed in in this
 * browser — the link is for its recipient — and the token leaves the address bar once it has been used.
 */
import { type FormEvent, useState } from 'react'
import { ApiError, api } from '../../lib/http.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { navigate } from '../../lib/router.tsx'
import { Field } from '../../ui/field.tsx'
import './messages.ts'

/** identity's route; the `path` identity answers with the link is this same route */
export const SET_PASSWORD_API = '/api/v1/auth/set-password'
export const SET_PASSWORD_PAGE = '/set-password'

const MIN_LENGTH = 8

export function SetPasswordPage() {
  const { t } = useI18n()
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '')
  const [password, setPassword] = useState('')
  const [repeat, setRepeat] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState(token === '')
  const [done, setDone] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (password.length < MIN_LENGTH) return setError(t('setPassword.short'))
    if (password !== repeat) return setError(t('setPassword.mismatch'))
    setBusy(true)
    setError(null)
    try {
      const result = await api<{ username: string }>(SET_PASSWORD_API, {
        method: 'POST',
        body: { token, password },
        auth: false,
      })
      window.history.replaceState(null, '', SET_PASSWORD_PAGE)
      setDone(result.username)
    } catch (err) {
      if (err instanceof ApiError && err.code === 'IDENTITY_SET_PASSWORD_TOKEN_INVALID') setInvalid(true)
      else setError(t('setPassword.error', { message: err instanceof Error ? err.message : String(err) }))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main>
      <form className="login" onSubmit={submit} aria-labelledby="set-password-title">
        <h1 id="set-password-title">{t('setPassword.title')}</h1>
        {done !== null ? (
          <>
            <p role="status">{t('setPassword.done', { username: done })}</p>
            <button type="button" className="primary" onClick={() => navigate('/', { replace: true })}>
              {t('setPassword.login')}
            </button>
          </>
        ) : invalid ? (
          <p role="alert">{t('setPassword.invalid')}</p>
        ) : (
          <>
            <p>{t('setPassword.intro')}</p>
            <Field
              label={t('setPassword.password')}
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_LENGTH}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Field
              label={t('setPassword.repeat')}
              name="repeat"
              type="password"
              autoComplete="new-password"
              required
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
            {error && (
              <p role="alert" className="error-text">
                {error}
              </p>
            )}
            <button type="submit" className="primary" disabled={busy}>
              {t('setPassword.submit')}
            </button>
          </>
        )}
      </form>
    </main>
  )
}
