/**
 * Server state lives in one TanStack Query cache (STYLE 19); hub frames update it in place and a resync
 * invalidates what may have changed while the socket was down.
 */
import { QueryClient, type QueryKey } from '@tanstack/react-query'

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // the hub keeps the cache fresh; refetch on focus is the hub's resync, not TanStack's own
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 2 && !((error as { status?: number }).status! >= 400),
    },
  },
})

/**
 * Apply a change to every cached query under `prefix` (e.g. every inbox tab and filter): `update` gets each
 * cached value and returns the new one (or the same object for no change).
 */
export function updateCached<T>(prefix: QueryKey, update: (value: T) => T): void {
  queryClient.setQueriesData<T>({ queryKey: prefix }, (value) => (value === undefined ? value : update(value)))
}

/** Mark every query under `prefix` stale and refetch the active ones (after a resync or an unknown change). */
export function invalidate(prefix: QueryKey): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: prefix })
}
