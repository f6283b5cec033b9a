/** The palette's commands: inbox tabs, conversations from the cached inbox lists, theme, language, log out. */
import type { QueryClient } from '@tanstack/react-query'
import { runCommand } from '../../lib/keyboard.ts'
import { navigate } from '../../lib/router.tsx'

export interface Command {
  id: string
  label: string
  run(): void
}

const VIEWS = ['mine', 'unassigned', 'waiting', 'all'] as const

// only the fields read here: the inbox's cache entries are `['inbox', view, filters]` infinite queries
interface CachedInbox {
  pages?: { items?: { id: string; customer_name: string | null; subject?: string }[] }[]
}

/** Conversations the console already holds (no request): the cached inbox lists, once each. */
export function cachedConversations(client: QueryClient): { id: string; name: string }[] {
  const seen = new Map<string, string>()
  for (const [, data] of client.getQueriesData<CachedInbox>({ queryKey: ['inbox'] })) {
    for (const page of data?.pages ?? []) {
      for (const item of page.items ?? []) {
        if (item.customer_name && !seen.has(item.id)) seen.set(item.id, item.customer_name)
      }
    }
  }
  return [...seen].map(([id, name]) => ({ id, name }))
}

export function viewCommands(t: (key: string, vars?: Record<string, string>) => string, maySeeAll: boolean) {
  return VIEWS.filter((v) => v !== 'all' || maySeeAll).map<Command>((view) => ({
    id: `view-${view}`,
    label: t('palette.go', { view: t(`palette.view.${view}`) }),
    run: () => runCommand('inbox.view', view),
  }))
}

export function conversationCommand(
  t: (key: string, vars?: Record<string, string>) => string,
  id: string,
  name: string,
) {
  return {
    id: `open-${id}`,
    label: t('palette.open', { name }),
    run: () => navigate(`/conversations/${encodeURIComponent(id)}`),
  } satisfies Command
}

/** Case-insensitive: every word typed appears in the label. */
export function matches(label: string, query: string): boolean {
  const text = label.toLocaleLowerCase()
  return query
    .toLocaleLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word))
}
