/**
 * The people section of the admin area (a lazy chunk, `/admin/people`): the workspace's agents and operators (agent
 * records with their account's role and status), a new person (the set-password link shown once), and per person
 * skills, capacity, department, role (a platform-wide administrator too, for a platform session), deactivate/reactivate
 * and "Revoke sessions". Each control is shown only to a user holding the permission its API demands (the API checks
 * again).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import {
  type Created,
  changeRole,
  createPerson,
  grantsPlatformAdmin,
  listPeople,
  type Person,
  platformWide,
  revokeSessions,
  setStatus,
  updateAgent,
} from './api.ts'
import './messages.ts'
import { ShiftWeek } from './shifts.tsx'

const keys = { all: ['settings-people'] as const }
const ROLES = ['agent', 'supervisor', 'admin'] as const

function OneTimeLink({ created, onDone }: { created: Created; onDone(): void }) {
  const { t } = useI18n()
  const [copied, setCopied] = useState(false)
  const sp = created.set_password
  if (!sp) return null
  // the console's page for it (features/set-password), which redeems the token at identity's `sp.path`
  const link = `${window.location.origin}/set-password?token=${encodeURIComponent(sp.token)}`
  return (
    <section aria-label={t('people.link')} className="admin-card">
      <h2>{t('people.link')}</h2>
      <p>{t('people.link.once', { name: created.user.username })}</p>
      <label>
        {t('people.link')}
        <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(link).then(() => setCopied(true))
        }}
      >
        {t('people.link.copy')}
      </button>
      {copied && <span role="status">{t('people.link.copied')}</span>}
      <button type="button" onClick={onDone}>
        {t('people.link.done')}
      </button>
    </section>
  )
}

function CreateForm({ onCreated }: { onCreated(c: Created): void }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    setBusy(true)
    setError(null)
    try {
      const created = await createPerson({
        username: String(data.get('username') ?? ''),
        email: String(data.get('email') ?? ''),
        name: String(data.get('name') ?? ''),
        role: String(data.get('role') ?? 'agent'),
      })
      form.reset()
      onCreated(created)
      await client.invalidateQueries({ queryKey: keys.all })
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form aria-label={t('people.create')} onSubmit={submit} className="admin-card">
      <h2>{t('people.create')}</h2>
      <label>
        {t('people.field.username')}
        <input name="username" required autoComplete="off" />
      </label>
      <label>
        {t('people.field.email')}
        <input name="email" type="email" required autoComplete="off" />
      </label>
      <label>
        {t('people.field.name')}
        <input name="name" autoComplete="off" />
      </label>
      <label>
        {t('people.field.role')}
        <select name="role" defaultValue="agent">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`people.role.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        {t('people.create.submit')}
      </button>
      {error !== null && <ErrorText error={error} />}
    </form>
  )
}

function EditPerson({ person, onClose }: { person: Person; onClose(): void }) {
  const { t } = useI18n()
  const access = useAccess()
  const client = useQueryClient()
  const { agent, user } = person
  const [department, setDepartment] = useState(agent.department)
  const [skills, setSkills] = useState(agent.skills.join(', '))
  const [capacity, setCapacity] = useState(String(agent.max_concurrent))
  const [role, setRole] = useState(user?.role ?? 'agent')
  const [platform, setPlatform] = useState(user ? platformWide(user) : false)
  const [note, setNote] = useState('')
  const [error, setError] = useState<unknown>(null)
  const name = agent.name || user?.username || agent.id

  async function run(action: () => Promise<unknown>, done: string) {
    setError(null)
    setNote('')
    try {
      await action()
      setNote(done)
      await client.invalidateQueries({ queryKey: keys.all })
    } catch (err) {
      setError(err)
    }
  }

  return (
    <section aria-label={t('people.edit.title', { name })} className="admin-card">
      <h2>{t('people.edit.title', { name })}</h2>
      {access.has('agents.write') && (
        <form
          aria-label={t('people.edit.title', { name })}
          onSubmit={(e) => {
            e.preventDefault()
            void run(
              () =>
                updateAgent(agent.id, {
                  department: department.trim(),
                  skills: skills
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean),
                  max_concurrent: Number(capacity),
                }),
              t('people.saved'),
            )
          }}
        >
          <label>
            {t('people.field.department')}
            <input value={department} onChange={(e) => setDepartment(e.target.value)} />
          </label>
          <label>
            {t('people.field.skills')}
            <input value={skills} onChange={(e) => setSkills(e.target.value)} />
          </label>
          <label>
            {t('people.field.capacity')}
            <input
              type="number"
              min={1}
              max={100}
              required
              value={capacity}
              onChange={(e) => setCapacity(e.target.value)}
            />
          </label>
          <button type="submit">{t('people.save')}</button>
        </form>
      )}
      {access.has('security.write') && user && (
        <div className="people-actions">
          <label>
            {t('people.field.role')}
            <select value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`people.role.${r}`)}
                </option>
              ))}
            </select>
          </label>
          {grantsPlatformAdmin() && (
            <label>
              <input
                type="checkbox"
                checked={role === 'admin' && platform}
                disabled={role !== 'admin'}
                onChange={(e) => setPlatform(e.target.checked)}
              />
              {t('people.field.platform')}
            </label>
          )}
          <button
            type="button"
            onClick={() => void run(() => changeRole(user.user_id, role, platform), t('people.role.changed'))}
          >
            {t('people.role.change')}
          </button>
          {user.status === 'inactive' ? (
            <button
              type="button"
              onClick={() => void run(() => setStatus(user.user_id, 'active'), t('people.status.active'))}
            >
              {t('people.reactivate')}
            </button>
          ) : (
            <button
              type="button"
              onClick={() => void run(() => setStatus(user.user_id, 'inactive'), t('people.status.inactive'))}
            >
              {t('people.deactivate')}
            </button>
          )}
          <button type="button" onClick={() => void run(() => revokeSessions(user.user_id), t('people.revoked'))}>
            {t('people.revoke')}
          </button>
        </div>
      )}
      {note && <p role="status">{note}</p>}
      {error !== null && <ErrorText error={error} />}
      {access.has('shift.read') && <ShiftWeek userId={agent.user_id} name={name} />}
      <button type="button" onClick={onClose}>
        {t('people.cancel')}
      </button>
    </section>
  )
}

export function PeopleScreen(_props: { path: string }) {
  const { t } = useI18n()
  const access = useAccess()
  const [created, setCreated] = useState<Created | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  const people = useQuery({ queryKey: [...keys.all, 'list'], queryFn: listPeople })
  const canEdit = access.has('agents.write') || access.has('security.write')
  const current = people.data?.find((p) => p.agent.id === editing)
  return (
    <div className="admin-page">
      <h1>{t('people.title')}</h1>
      {created ? (
        <OneTimeLink created={created} onDone={() => setCreated(null)} />
      ) : (
        access.has('security.write') && <CreateForm onCreated={setCreated} />
      )}
      {current && <EditPerson key={current.agent.id} person={current} onClose={() => setEditing(null)} />}
      {people.isPending ? (
        <Loading label={t('people.loading')} />
      ) : people.error ? (
        <ErrorText error={people.error} />
      ) : people.data.length === 0 ? (
        <EmptyState>{t('people.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={t('people.list')}>
          <thead>
            <tr>
              <th scope="col">{t('people.col.name')}</th>
              <th scope="col">{t('people.col.username')}</th>
              <th scope="col">{t('people.col.role')}</th>
              <th scope="col">{t('people.col.account')}</th>
              <th scope="col">{t('people.col.department')}</th>
              <th scope="col">{t('people.col.skills')}</th>
              <th scope="col">{t('people.col.capacity')}</th>
              {canEdit && <th scope="col">{t('people.col.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {people.data.map(({ agent, user }) => {
              const name = agent.name || user?.username || agent.id
              return (
                <tr key={agent.id} data-user={user?.username}>
                  <td>{name}</td>
                  <td>{user?.username ?? ''}</td>
                  <td>
                    {user ? (platformWide(user) ? t('people.role.platform') : t(`people.role.${user.role}`)) : ''}
                  </td>
                  <td>{user?.status === 'inactive' ? t('people.status.inactive') : t('people.status.active')}</td>
                  <td>{agent.department}</td>
                  <td>{agent.skills.join(', ')}</td>
                  <td>{agent.max_concurrent}</td>
                  {canEdit && (
                    <td>
                      <button type="button" onClick={() => setEditing(agent.id)}>
                        {t('people.edit', { name })}
                      </button>
                    </td>
                  )}
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </div>
  )
}
