/**
 * The Knowledge section of the admin area (a lazy chunk): `/admin/knowledge` (and `/docs`) the knowledge docs,
 * `/docs/new` and `/docs/:id` the editor, `/macros` the macros. A tab is shown only to writers of its API.
 */
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { Link, matchPath } from '../../lib/router.tsx'
import { DocEditor, DocList } from './docs.tsx'
import { MacroList } from './macros.tsx'
import './knowledge.css'
import './messages.ts'

const BASE = '/admin/knowledge'

export function KnowledgeScreen({ path }: { path: string }) {
  const { t } = useI18n()
  const access = useAccess()
  const docs = access.has('knowledge.write')
  const macros = access.has('macros.write')
  const onMacros = path === `${BASE}/macros` || (!docs && macros)
  const docId = matchPath(`${BASE}/docs/:id`, path)?.id
  let body = <DocList />
  if (onMacros) body = <MacroList />
  else if (docId) body = <DocEditor id={docId === 'new' ? null : docId} />
  return (
    <div className="kb-screen">
      <h1>{t('kb.title')}</h1>
      <nav aria-label={t('kb.tabs')} className="kb-tabs">
        {docs && (
          <Link href={`${BASE}/docs`} aria-current={!onMacros ? 'page' : undefined}>
            {t('kb.tab.docs')}
          </Link>
        )}
        {macros && (
          <Link href={`${BASE}/macros`} aria-current={onMacros ? 'page' : undefined}>
            {t('kb.tab.macros')}
          </Link>
        )}
      </nav>
      {body}
    </div>
  )
}
