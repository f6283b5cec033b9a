/** The admin sections' links in the shell's navigation rail: only those the signed-in user may open. */

import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { Link } from '../../lib/router.tsx'
import { ADMIN_SECTIONS, sectionOf } from './sections.ts'
import './admin-nav.css'
import './messages.ts'

export function AdminNavLinks({ path }: { path: string }) {
  const { t } = useI18n()
  const access = useAccess()
  const current = sectionOf(path)
  return (
    <>
      {ADMIN_SECTIONS.filter((s) => s.allowed(access)).map((s) => (
        <Link key={s.id} href={s.path} data-admin={s.id} aria-current={current?.id === s.id ? 'page' : undefined}>
          <span className="admin-nav-label">{t(s.label)}</span>
        </Link>
      ))}
    </>
  )
}
