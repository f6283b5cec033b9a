/**
 * Knowledge docs: the workspace's list (public flag and the provider sync status per doc) and the editor — title,
 * category, a Markdown textarea with a live preview beside it, the public flag — saving through
 * `/api/knowledge-docs`; a public doc links to its help-centre article. Writing controls only for `knowledge.write`.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useAuth } from '../../lib/auth.tsx'
import { useI18n } from '../../lib/i18n.tsx'
import { invalidate } from '../../lib/query.ts'
import { Link, navigate } from '../../lib/router.tsx'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { createDoc, deleteDoc, getDoc, type KnowledgeDoc, keys, listDocs, syncStatusOf, updateDoc } from './api.ts'
import { MarkdownPreview } from './markdown.tsx'
import './messages.ts'

const BASE = '/admin/knowledge'

function useHelpUrl() {
  const { user } = useAuth()
  return (id: string) =>
    user?.tenant_id && user.workspace_id
      ? `/help/${encodeURIComponent(user.tenant_id)}/${encodeURIComponent(user.workspace_id)}/articles/${encodeURIComponent(id)}`
      : null
}

function SyncBadge({ doc }: { doc: KnowledgeDoc }) {
  const { t } = useI18n()
  const status = syncStatusOf(doc)
  return (
    <span className={`kb-sync kb-sync-${status}`} title={doc.sync_error ?? undefined}>
      {t(`kb.sync.${status}`)}
    </span>
  )
}

export function DocList() {
  const { t, formatTime } = useI18n()
  const canWrite = useAccess().has('knowledge.write')
  const helpUrl = useHelpUrl()
  const list = useQuery({ queryKey: keys.docs(1), queryFn: ({ signal }) => listDocs(1, signal) })
  return (
    <section aria-labelledby="kb-docs-h">
      <div className="kb-bar">
        <h2 id="kb-docs-h">{t('kb.docs')}</h2>
        {canWrite && (
          <Link className="button primary" href={`${BASE}/docs/new`}>
            {t('kb.docs.new')}
          </Link>
        )}
      </div>
      {!canWrite && <p className="placeholder">{t('kb.readOnly')}</p>}
      <ErrorText error={list.error} />
      {list.isPending ? (
        <Loading label={t('kb.docs.loading')} />
      ) : list.data && list.data.data.length === 0 ? (
        <EmptyState>{t('kb.docs.empty')}</EmptyState>
      ) : (
        <table aria-label={t('kb.docs')}>
          <thead>
            <tr>
              <th scope="col">{t('kb.col.title')}</th>
              <th scope="col">{t('kb.col.category')}</th>
              <th scope="col">{t('kb.col.public')}</th>
              <th scope="col">{t('kb.col.sync')}</th>
              <th scope="col">{t('kb.col.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((doc) => {
              const help = doc.is_public ? helpUrl(doc.id) : null
              return (
                <tr key={doc.id}>
                  <td>
                    <Link href={`${BASE}/docs/${encodeURIComponent(doc.id)}`}>{doc.title}</Link>
                  </td>
                  <td>{doc.category}</td>
                  <td>
                    {help ? (
                      <a href={help} target="_blank" rel="noopener">
                        {t('kb.yes')}
                      </a>
                    ) : (
                      t('kb.no')
                    )}
                  </td>
                  <td>
                    <SyncBadge doc={doc} />
                  </td>
                  <td>{formatTime(doc.updated_at)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </section>
  )
}

export function DocEditor({ id }: { id: string | null }) {
  const { t } = useI18n()
  const canWrite = useAccess().has('knowledge.write')
  const helpUrl = useHelpUrl()
  const existing = useQuery({
    queryKey: ['settings-knowledge', 'doc', id],
    queryFn: ({ signal }) => getDoc(id as string, signal),
    enabled: id !== null,
  })
  const [title, setTitle] = useState('')
  const [category, setCategory] = useState('')
  const [content, setContent] = useState('')
  const [isPublic, setPublic] = useState(false)
  const [saved, setSaved] = useState<KnowledgeDoc | null>(null)
  const [confirming, setConfirming] = useState(false)
  useEffect(() => {
    const doc = existing.data
    if (!doc) return
    setTitle(doc.title)
    setCategory(doc.category ?? '')
    setContent(doc.content)
    setPublic(doc.is_public)
  }, [existing.data])
  const save = useMutation({
    mutationFn: () => {
      const body = { title, content, is_public: isPublic, ...(category.trim() ? { category: category.trim() } : {}) }
      return id ? updateDoc(id, body) : createDoc(body)
    },
    onSuccess: async (doc) => {
      setSaved(doc)
      await invalidate(['settings-knowledge'])
      if (!id) navigate(`${BASE}/docs/${encodeURIComponent(doc.id)}`, { replace: true })
    },
  })
  const remove = useMutation({
    mutationFn: () => deleteDoc(id as string),
    onSuccess: async () => {
      await invalidate(['settings-knowledge'])
      navigate(`${BASE}/docs`)
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate()
  }
  if (id && existing.isPending) return <Loading label={t('kb.docs.loading')} />
  if (id && existing.error) return <ErrorText error={existing.error} />
  const current = saved ?? existing.data ?? null
  const help = current?.is_public ? helpUrl(current.id) : null
  return (
    <section aria-labelledby="kb-editor-h" className="kb-editor">
      <Link href={`${BASE}/docs`}>{t('kb.back')}</Link>
      <h2 id="kb-editor-h">{id ? t('kb.editor.edit', { title: existing.data?.title ?? '' }) : t('kb.editor.new')}</h2>
      {current && (
        <p className="kb-status">
          <SyncBadge doc={current} />
          {current.sync_error && <span> {t('kb.syncError', { error: current.sync_error })}</span>}
          {help && (
            <>
              {' '}
              <a href={help} target="_blank" rel="noopener">
                {t('kb.helpLink')}
              </a>
            </>
          )}
        </p>
      )}
      <form aria-label={t('kb.editor.form')} onSubmit={submit}>
        <label>
          <span>{t('kb.field.title')}</span>
          <input
            required
            maxLength={500}
            value={title}
            readOnly={!canWrite}
            onChange={(e) => setTitle(e.target.value)}
          />
        </label>
        <label>
          <span>{t('kb.field.category')}</span>
          <input value={category} readOnly={!canWrite} onChange={(e) => setCategory(e.target.value)} />
        </label>
        <div className="kb-split">
          <label>
            <span>{t('kb.field.content')}</span>
            <textarea
              required
              rows={16}
              value={content}
              readOnly={!canWrite}
              onChange={(e) => setContent(e.target.value)}
            />
          </label>
          <section aria-labelledby="kb-preview-h" className="kb-preview">
            <h3 id="kb-preview-h">{t('kb.preview')}</h3>
            <div className="kb-preview-body" data-testid="kb-preview">
              <MarkdownPreview source={content} />
            </div>
            <p className="kb-note">{t('kb.preview.note')}</p>
          </section>
        </div>
        <label className="kb-check">
          <input
            type="checkbox"
            checked={isPublic}
            disabled={!canWrite}
            onChange={(e) => setPublic(e.target.checked)}
          />
          <span>{t('kb.field.public')}</span>
        </label>
        {canWrite && (
          <div className="kb-actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              {save.isPending ? t('kb.saving') : t('kb.save')}
            </button>
            {id &&
              (confirming ? (
                <>
                  <span>{t('kb.deleteConfirm', { title })}</span>
                  <button type="button" className="danger" onClick={() => remove.mutate()}>
                    {t('kb.delete')}
                  </button>
                  <button type="button" onClick={() => setConfirming(false)}>
                    {t('kb.macro.cancel')}
                  </button>
                </>
              ) : (
                <button type="button" onClick={() => setConfirming(true)}>
                  {t('kb.delete')}
                </button>
              ))}
          </div>
        )}
        <ErrorText error={save.error ?? remove.error} />
        <p role="status" aria-live="polite">
          {saved?.sync && !save.isPending ? t('kb.saved', { status: t(`kb.sync.${saved.sync.status}`) }) : ''}
        </p>
      </form>
    </section>
  )
}
