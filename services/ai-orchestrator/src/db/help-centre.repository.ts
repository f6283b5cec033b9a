import type { Scope } from '@switchboard/platform'
import type { Kysely } from 'kysely'
import type { AiDatabase } from './database.ts'

type Db = Kysely<AiDatabase>

/** An article as the help centre lists it: no content, which may be 200 kB per doc. */
export interface ArticleEntry {
  id: string
  title: string
  category: string
  updated_at: string
}

/** The public docs of exactly this scope, light columns, by category then title: the home page and the sitemap. */
export async function publicArticleIndex(db: Db, scope: Scope, max: number): Promise<ArticleEntry[]> {
  const rows = await db
    .selectFrom('knowledge_docs')
    .select(['id', 'title', 'category', 'updated_at'])
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('is_public', '=', true)
    .orderBy('category')
    .orderBy('title')
    .orderBy('id')
    .limit(max)
    .execute()
  return rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }))
}

/** Whether the scope has any public doc: a help centre without one does not exist (404, like an unknown scope). */
export async function hasPublicDocs(db: Db, scope: Scope): Promise<boolean> {
  const row = await db
    .selectFrom('knowledge_docs')
    .select('id')
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where('is_public', '=', true)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
