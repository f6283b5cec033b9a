/**
 * The Custom fields section of the admin area (a lazy chunk, `/admin/fields`): the workspace's ticket fields with
 * their type, required flag and condition; a field's editor (new or saved) beside a live preview of the agent's
 * ticket form; delete after a confirmation. Shown to holders of custom_fields.write, which the API demands.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { type CustomField, deleteField, fieldKeys, listFields } from './api.ts'
import { summary } from './conditions.ts'
import { FieldEditor } from './field-editor.tsx'
import './fields.css'
import './messages.ts'

function FieldRow({ field, onEdit }: { field: CustomField; onEdit(): void }) {
  const { t } = useI18n()
  const client = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<unknown>(null)
  async function remove() {
    setError(null)
    try {
      await deleteField(field.id)
      await client.invalidateQueries({ queryKey: fieldKeys.all })
      await client.invalidateQueries({ queryKey: ['tickets', 'custom-fields'] })
    } catch (err) {
      setError(err)
    }
  }
  return (
    <tr>
      <td>
        <code>{field.key}</code>
      </td>
      <td>{field.name}</td>
      <td>{t(`fields.type.${field.type}`)}</td>
      <td>{field.required ? t('fields.yes') : t('fields.no')}</td>
      <td>{field.active === false ? t('fields.no') : t('fields.yes')}</td>
      <td>{summary(field.show_when) || t('fields.always')}</td>
      <td className="fields-actions">
        <button type="button" onClick={onEdit}>
          {t('fields.edit', { key: field.key })}
        </button>
        {confirming ? (
          <>
            <button type="button" onClick={() => void remove()}>
              {t('fields.delete.confirm', { key: field.key })}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('fields.cancel')}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            {t('fields.delete', { key: field.key })}
          </button>
        )}
        <ErrorText error={error} />
      </td>
    </tr>
  )
}

export function FieldsScreen(_props: { path: string }) {
  const { t } = useI18n()
  // null: no editor; 'new': a new field; else the id of the field edited
  const [editing, setEditing] = useState<string | null>(null)
  const [note, setNote] = useState('')
  const fields = useQuery({ queryKey: [...fieldKeys.all, 'list'], queryFn: listFields })
  const all = fields.data ?? []
  const current = all.find((f) => f.id === editing) ?? null
  const open = (id: string) => {
    setNote('')
    setEditing(id)
  }
  return (
    <div className="admin-page fields-screen">
      <h1>{t('fields.title')}</h1>
      {editing === null ? (
        <button type="button" onClick={() => open('new')}>
          {t('fields.new')}
        </button>
      ) : (
        (editing === 'new' || current) && (
          <FieldEditor
            key={editing}
            field={current}
            all={all}
            onDone={(saved) => {
              setEditing(null)
              if (saved) setNote(t('fields.saved', { key: saved.key }))
            }}
          />
        )
      )}
      {note && <p role="status">{note}</p>}
      {fields.isPending ? (
        <Loading label={t('fields.loading')} />
      ) : fields.error ? (
        <ErrorText error={fields.error} />
      ) : all.length === 0 ? (
        <EmptyState>{t('fields.empty')}</EmptyState>
      ) : (
        <table className="admin-table" aria-label={t('fields.list')}>
          <thead>
            <tr>
              <th scope="col">{t('fields.key')}</th>
              <th scope="col">{t('fields.name')}</th>
              <th scope="col">{t('fields.type')}</th>
              <th scope="col">{t('fields.required')}</th>
              <th scope="col">{t('fields.active')}</th>
              <th scope="col">{t('fields.cond')}</th>
              <th scope="col">{t('fields.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {all.map((f) => (
              <FieldRow key={f.id} field={f} onEdit={() => open(f.id)} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
