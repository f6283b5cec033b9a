/**
 * Macros: the workspace's canned replies (tickets' `/api/macros`) as a table, with a form to create one or edit a
 * row, and delete (confirmed in place). Writing controls only for `macros.write`; agents, who read macros, never get
 * here (the section needs a writer), and the API refuses their writes anyway.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { invalidate } from '../../lib/query.ts'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { createMacro, deleteMacro, keys, listMacros, type Macro, type MacroInput, updateMacro } from './api.ts'
import './messages.ts'

const EMPTY: MacroInput = { name: '', description: '', content: '', active: true }

function MacroForm({ macro, onDone }: { macro: Macro | null; onDone: () => void }) {
  const { t } = useI18n()
  const [draft, setDraft] = useState<MacroInput>(
    macro
      ? { name: macro.name, description: macro.description ?? '', content: macro.content, active: macro.active }
      : EMPTY,
  )
  const set = (patch: Partial<MacroInput>) => setDraft((d) => ({ ...d, ...patch }))
  const save = useMutation({
    mutationFn: () => (macro ? updateMacro(macro.id, draft) : createMacro(draft)),
    onSuccess: async () => {
      await invalidate(['settings-knowledge', 'macros'])
      onDone()
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate()
  }
  return (
    <form aria-label={t('kb.macro.form')} onSubmit={submit} className="kb-macro-form">
      <label>
        <span>{t('kb.macro.name')}</span>
        <input required maxLength={200} value={draft.name} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <label>
        <span>{t('kb.macro.description')}</span>
        <input value={draft.description} onChange={(e) => set({ description: e.target.value })} />
      </label>
      <label>
        <span>{t('kb.macro.content')}</span>
        <textarea required rows={5} value={draft.content} onChange={(e) => set({ content: e.target.value })} />
      </label>
      <label className="kb-check">
        <input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} />
        <span>{t('kb.macro.active')}</span>
      </label>
      <div className="kb-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('kb.macro.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('kb.macro.cancel')}
        </button>
      </div>
      <ErrorText error={save.error} />
    </form>
  )
}

export function MacroList() {
  const { t } = useI18n()
  const canWrite = useAccess().has('macros.write')
  const [editing, setEditing] = useState<Macro | 'new' | null>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const list = useQuery({ queryKey: keys.macros(1), queryFn: ({ signal }) => listMacros(1, signal) })
  const remove = useMutation({
    mutationFn: (id: string) => deleteMacro(id),
    onSuccess: async () => {
      setConfirming(null)
      await invalidate(['settings-knowledge', 'macros'])
    },
  })
  return (
    <section aria-labelledby="kb-macros-h">
      <div className="kb-bar">
        <h2 id="kb-macros-h">{t('kb.macros')}</h2>
        {canWrite && editing === null && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('kb.macro.new')}
          </button>
        )}
      </div>
      {!canWrite && <p className="placeholder">{t('kb.readOnly')}</p>}
      {canWrite && editing !== null && (
        <MacroForm
          key={editing === 'new' ? 'new' : editing.id}
          macro={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      <ErrorText error={list.error ?? remove.error} />
      {list.isPending ? (
        <Loading label={t('kb.macros.loading')} />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState>{t('kb.macros.empty')}</EmptyState>
      ) : (
        <table aria-label={t('kb.macros')}>
          <thead>
            <tr>
              <th scope="col">{t('kb.macro.col.name')}</th>
              <th scope="col">{t('kb.macro.content')}</th>
              <th scope="col">{t('kb.macro.col.active')}</th>
              {canWrite && <th scope="col">{t('kb.macro.col.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((m) => (
              <tr key={m.id}>
                <th scope="row">{m.name}</th>
                <td className="kb-macro-content">{m.content}</td>
                <td>{m.active ? '✓' : '—'}</td>
                {canWrite && (
                  <td className="kb-actions">
                    {confirming === m.id ? (
                      <>
                        <span>{t('kb.macro.deleteConfirm', { name: m.name })}</span>
                        <button type="button" className="danger" onClick={() => remove.mutate(m.id)}>
                          {t('kb.macro.delete', { name: m.name })}
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          {t('kb.macro.cancel')}
                        </button>
                      </>
                    ) : (
                      <>
                        <button type="button" onClick={() => setEditing(m)}>
                          {t('kb.macro.edit', { name: m.name })}
                        </button>
                        <button type="button" onClick={() => setConfirming(m.id)}>
                          {t('kb.macro.delete', { name: m.name })}
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
