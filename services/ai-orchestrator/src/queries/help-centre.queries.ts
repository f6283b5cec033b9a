import { type PageWindow, pageWindow, type Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { type ArticleEntry, publicArticleIndex } from '../db/help-centre.repository.ts'
import { exactly, findDocIn, listDocs } from '../db/knowledge-docs.repository.ts'
import type { HelpMarkdown } from '../domain/help-markdown.ts'
import type { CategoryGroup, PageSlice, SearchHit } from '../pages/help-pages.ts'
import type { PublicKbDoc } from '../schemas/knowledge-docs.schemas.ts'

/** Articles the home page reads at most (it lists a few per topic); a larger help centre is browsed by topic. */
export const HOME_INDEX_MAX = 1_000
/** The sitemap protocol's own limit of locations in one file. */
export const SITEMAP_MAX = 50_000
export const PAGE_SIZE = 20

/** The scope's public articles grouped by category: 'general' first, then by name; empty when it has none. */
export function groupByCategory(articles: ArticleEntry[]): CategoryGroup[] {
  const groups = new Map<string, ArticleEntry[]>()
  for (const a of articles) {
    const list = groups.get(a.category)
    if (list) list.push(a)
    else groups.set(a.category, [a])
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === 'general' ? -1 : b === 'general' ? 1 : a.localeCompare(b)))
    .map(([category, list]) => ({ category, total: list.length, articles: list }))
}

export async function helpIndex(svc: AiService, scope: Scope, max = HOME_INDEX_MAX) {
  const articles = await publicArticleIndex(svc.db, scope, max)
  return { articles, groups: groupByCategory(articles) }
}

const sliceOf = <T>(rows: T[], total: number, w: PageWindow): PageSlice<T> => ({
  rows,
  total,
  page: w.page,
  pages: Math.max(1, Math.ceil(total / w.page_size)),
})

/** One page of a category's public articles, newest change first. */
export async function categoryArticles(svc: AiService, scope: Scope, category: string, page: number) {
  const w = pageWindow({ page }, PAGE_SIZE)
  const { rows, total } = await listDocs(svc.db, svc.dialect, exactly(scope), { category, public_only: true }, w)
  const entries = rows.map((d) => ({ id: d.id, title: d.title, category: d.category, updated_at: d.updated_at }))
  return sliceOf(entries, total, w)
}

/** One page of the public articles holding every word of `q` (the public knowledge base's search), with excerpts. */
export async function searchArticles(
  svc: AiService,
  markdown: HelpMarkdown,
  scope: Scope,
  q: string,
  page: number,
): Promise<PageSlice<SearchHit>> {
  const w = pageWindow({ page }, PAGE_SIZE)
  const { rows, total } = await listDocs(svc.db, svc.dialect, exactly(scope), { search: q, public_only: true }, w)
  const hits = rows.map((d) => ({ id: d.id, title: d.title, excerpt: markdown.plainText(d.content, 200) }))
  return sliceOf(hits, total, w)
}

/** A public doc of exactly this scope; a private one, another scope's and a missing one are all undefined. */
export async function publicArticle(svc: AiService, scope: Scope, id: string): Promise<PublicKbDoc | undefined> {
  const doc = await findDocIn(svc.db, id, scope)
  if (!doc?.is_public) return undefined
  const { title, content, category, tags, created_at, updated_at } = doc
  return { id: doc.id, title, content, category, tags, created_at, updated_at }
}
