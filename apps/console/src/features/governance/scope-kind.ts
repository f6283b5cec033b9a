/** The scope the Configuration screen works on, for every part of it (forms, approvals, history, verification). */
import { createContext, useContext } from 'react'
import type { ScopeKind } from './api.ts'

export const ScopeKindContext = createContext<ScopeKind>('workspace')

export const useScopeKind = (): ScopeKind => useContext(ScopeKindContext)

/** Query keys of one scope's reads: a write invalidates `['governance']`, every scope's. */
export const scopeKeys = (kind: ScopeKind) => ['governance', kind] as const
