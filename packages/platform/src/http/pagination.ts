import type { SelectQueryBuilder } from 'kysely'

export { BoundedList, MAX_PAGE, MAX_PAGE_SIZE, PageQuery, Paginated } from '@switchboard/contracts'

/** Which slice of a list a request asks for: the query's page and size, as offset and limit. */
export interface PageWindow {
  page: number
  page_size: number
  offset: number
  limit: number
}

/** `?page=&page_size=` (already validated by PageQuery) as a window; defaults page 1, size 20. */
export function pageWindow(query: { page?: number; page_size?: number }, defaultSize = 20): PageWindow {
  const page = query.page ?? 1
  const size = query.page_size ?? defaultSize
  return { page, page_size: size, offset: (page - 1) * size, limit: size }
}

/** The paginated envelope `{data, total, page, page_size, pages}`; `pages` is always at least 1. */
export function pageOf<T>(data: T[], total: number, window: Pick<PageWindow, 'page' | 'page_size'>) {
  return {
    data,
    total,
    page: window.page,
    page_size: window.page_size,
    pages: Math.max(1, Math.ceil(total / window.page_size)),
  }
}

// biome-ignore lint/complexity/noBannedTypes: Kysely's own type for a query that selects nothing yet
type NoSelection = {}

/**
 * One page of a filtered query and the total it would have without paging: `base` carries the filters,
 * `select` the columns and order. Both statements run on the same builder, so they count what they list.
 */
export async function selectPage<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, NoSelection>,
  window: Pick<PageWindow, 'offset' | 'limit'>,
  select: (qb: SelectQueryBuilder<DB, TB, NoSelection>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    select(base).offset(window.offset).limit(window.limit).execute(),
  ])
  return { rows, total: Number((count as { n: number | string }).n) }
}
