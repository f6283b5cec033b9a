/** Small shared presentational pieces: an error in words, an empty or loading state. */
import type { ReactNode } from 'react'
import { ApiError } from '../lib/http.ts'

/** An error shown in words, announced to screen readers (role=alert). */
export function ErrorText({ error, fallback }: { error: unknown; fallback?: string }) {
  if (!error) return null
  const message = error instanceof ApiError || error instanceof Error ? error.message : fallback
  return (
    <p role="alert" className="error-text">
      {message || fallback}
    </p>
  )
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="placeholder">{children}</p>
}

export function Loading({ label }: { label: string }) {
  return (
    <p className="placeholder" role="status" aria-live="polite">
      {label}
    </p>
  )
}
