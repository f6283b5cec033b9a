/**
 * The admin area's main view (a lazy chunk): the section the path names, when the signed-in user may open it;
 * "Not permitted" when not (the API would refuse it anyway); `/admin` goes to the first section allowed.
 */
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useEffect, useMemo } from 'react'
import { useAccess } from '../../lib/access.ts'
import { useI18n } from '../../lib/i18n.tsx'
import { navigate } from '../../lib/router.tsx'
import { Loading } from '../../ui/status.tsx'
import { ADMIN_SECTIONS, type AdminSection, sectionOf } from './sections.ts'
import './admin.css'
import './messages.ts'

const screens = new Map<string, LazyExoticComponent<ComponentType<{ path: string }>>>()
function screenOf(section: AdminSection) {
  let screen = screens.get(section.id)
  if (!screen) {
    screen = lazy(section.load)
    screens.set(section.id, screen)
  }
  return screen
}

function Refusal({ title, body }: { title: string; body: string }) {
  return (
    <section className="admin-refusal" aria-labelledby="admin-refusal-title">
      <h1 id="admin-refusal-title">{title}</h1>
      <p>{body}</p>
    </section>
  )
}

export function AdminArea({ path }: { path: string }) {
  const { t } = useI18n()
  const access = useAccess()
  const section = sectionOf(path)
  const first = useMemo(() => ADMIN_SECTIONS.find((s) => s.allowed(access)), [access])
  const atRoot = path === '/admin' || path === '/admin/'
  useEffect(() => {
    if (atRoot && first) navigate(first.path, { replace: true })
  }, [atRoot, first])
  if (atRoot) return first ? null : <Refusal title={t('admin.notPermitted')} body={t('admin.none')} />
  if (!section) return <Refusal title={t('admin.notFound')} body={path} />
  if (!section.allowed(access)) return <Refusal title={t('admin.notPermitted')} body={t('admin.notPermitted.body')} />
  const Screen = screenOf(section)
  return (
    <Suspense fallback={<Loading label={t('admin.loading')} />}>
      <Screen path={path} />
    </Suspense>
  )
}
