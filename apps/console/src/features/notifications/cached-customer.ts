/**
 * The customer's name of a conversation as the inbox lists it (its rows in the query cache, `customer_name`), or
 * null when no cached list holds the conversation yet: no request is made for a notification.
 */
import { queryClient } from '../../lib/query.ts'

interface CachedList {
  pages?: { items?: { id: string; customer_name?: string | null }[] }[]
}

export function cachedCustomerName(sessionId: string | undefined): string | null {
  if (!sessionId) return null
  for (const [, data] of queryClient.getQueriesData<CachedList>({ queryKey: ['inbox'] })) {
    for (const page of data?.pages ?? []) {
      for (const row of page.items ?? []) if (row.id === sessionId && row.customer_name) return row.customer_name
    }
  }
  return null
}
