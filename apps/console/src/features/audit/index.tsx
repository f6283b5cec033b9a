/**
 * The audit section of the admin area (a lazy chunk): `/admin/audit` the filtered list, `/admin/audit/:id` one
 * record with its diff. Filters and page live here, so going to a record and back keeps them.
 */
import { useState } from 'react'
import { matchPath } from '../../lib/router.tsx'
import { type AuditFilters, NO_FILTERS } from './api.ts'
import { AuditDetail } from './audit-detail.tsx'
import { AuditList } from './audit-list.tsx'

export function AuditScreen({ path }: { path: string }) {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const id = matchPath('/admin/audit/:id', path)?.id
  if (id) return <AuditDetail id={id} />
  return (
    <AuditList
      filters={filters}
      page={page}
      onApply={(next) => {
        setFilters(next)
        setPage(1)
      }}
      onPage={setPage}
    />
  )
}
