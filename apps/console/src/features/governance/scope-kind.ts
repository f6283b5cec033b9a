/**
 * The scope the Configuration screen works on, for every part of it (forms, approvals, history, verification,
 * rollback): the session's own, or the one a platform operator picked.
 */
import { createContext, useContext } from 'react'
import type { GovScope } from './api.ts'

export const ScopeKindContext = createContext<GovScope>({ kind: 'workspace', tenant: '', workspace: '' })

export const useGovScope = (): GovScope => useContext(ScopeKindContext)

/** Query keys of one scope's reads: a write invalidates `['governance']`, every scope's. */
export const scopeKeys = (s: GovScope) => ['governance', s.kind, s.tenant, s.workspace] as const
