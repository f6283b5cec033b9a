import {
  type Dialect,
  fromJson,
  likeOperator,
  type PageWindow,
  type Scope,
  selectPage,
  type Tx,
  toBool,
  toJson,
  whereScope,
} from '@switchboard/platform'
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely'
import { likePattern, queryTokens } from '../domain/search-terms.ts'
import type { KnowledgeDoc } from '../schemas/knowledge-docs.schemas.ts'
import type { AiDatabase, KnowledgeDocsTable } from './database.ts'

type Db = Kysely<AiDatabase>

/** The columns of a doc: never `select *`, which would bring PostgreSQL's tsvector along. */
export const DOC_COLUMNS = [
  'id',
  'tenant_id',
  'workspace_id',
  'title',
  'content',
  'category',
  'tags',
  'is_public',
  'provider_id',
  'external_id',
  'sync_error',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof KnowledgeDocsTable)[]

export function toDoc(row: Selectable<KnowledgeDocsTable>): KnowledgeDoc {
  return {
    ...row,
    tags: fromJson<string[]>(row.tags, []),
    is_public: toBool(row.is_public),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  }
}

export async function insertDoc(db: Db, doc: KnowledgeDoc): Promise<void> {
  await db
    .insertInto('knowledge_docs')
    .values({ ...doc, tags: toJson(doc.tags), is_public: doc.is_public })
    .execute()
}

const docById = (db: Db, id: string, scope: Scope) =>
  whereScope(db.selectFrom('knowledge_docs').select(DOC_COLUMNS).where('id', '=', id), scope)

/** Scoped: a doc of another tenant or workspace is not found, like a missing one. */
export async function findDoc(db: Db, id: string, scope: Scope): Promise<KnowledgeDoc | undefined> {
  const row = await docById(db, id, scope).executeTakeFirst()
  return row ? toDoc(row) : undefined
}

/** `findDoc`, its row locked until `tx` ends. */
export async function findDocForUpdate(
  tx: Tx<AiDatabase>,
  id: string,
  scope: Scope,
): Promise<KnowledgeDoc | undefined> {
  const row = await tx.forUpdate(docById(tx.db, id, scope)).executeTakeFirst()
  return row ? toDoc(row) : undefined
}

/** A doc of exactly this scope (the public knowledge base: '' / '' is the system's). */
export async function findDocIn(db: Db, id: string, scope: Scope): Promise<KnowledgeDoc | undefined> {
  const row = await db
    .selectFrom('knowledge_docs')
    .select(DOC_COLUMNS)
    .where('id', '=', id)
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .executeTakeFirst()
  return row ? toDoc(row) : undefined
}

/** `unchangedSince`: only if no other write came after that one (a late sync result never overwrites a newer one). */
export async function writeDoc(
  db: Db,
  id: string,
  patch: Partial<KnowledgeDoc>,
  opts: { unchangedSince?: string } = {},
): Promise<void> {
  const { tags, ...plain } = patch
  let q = db
    .updateTable('knowledge_docs')
    .set({ ...plain, ...(tags !== undefined ? { tags: toJson(tags) } : {}) })
    .where('id', '=', id)
  if (opts.unchangedSince) q = q.where('updated_at', '=', opts.unchangedSince)
  await q.execute()
}

export async function deleteDoc(db: Db, id: string): Promise<void> {
  await db.deleteFrom('knowledge_docs').where('id', '=', id).execute()
}

export interface DocFilters {
  category?: string | undefined
  search?: string | undefined
  public_only?: boolean | undefined
}

/**
 * One page of docs, newest change first. `search`: every token of it (queryTokens) in the title or the content, a
 * case-insensitive substring, so "reset password" finds "reset your password" and 退款 finds 申请退款; text without a
 * token ("???") is matched as it is.
 */
export async function listDocs(
  db: Db,
  dialect: Dialect,
  where: (qb: ReturnType<typeof from>) => ReturnType<typeof from>,
  filters: DocFilters,
  window: PageWindow,
) {
  let base = where(from(db))
  if (filters.category) base = base.where('category', '=', filters.category)
  if (filters.public_only) base = base.where('is_public', '=', true)
  if (filters.search) {
    const tokens = queryTokens(filters.search)
    const words = tokens.length > 0 ? tokens : [filters.search]
    for (const word of words) base = base.where((eb) => containsText(eb, dialect, word))
  }
  const { rows, total } = await selectPage(base, window, (qb) =>
    qb.select(DOC_COLUMNS).orderBy('updated_at', 'desc').orderBy('id', 'desc'),
  )
  return { rows: rows.map(toDoc), total }
}

const from = (db: Db) => db.selectFrom('knowledge_docs')

/** The caller's scope as a filter (protected routes: an unscoped administrator sees every scope). */
export const inScopeOf = (scope: Scope) => (qb: ReturnType<typeof from>) => whereScope(qb, scope)

/** Exactly this scope (the public knowledge base). */
export const exactly = (scope: Scope) => (qb: ReturnType<typeof from>) =>
  qb.where('tenant_id', '=', scope.tenant_id).where('workspace_id', '=', scope.workspace_id)

/** `text` in the title or the content, case-insensitively; LIKE's wildcards in it are literals. */
export function containsText(eb: ExpressionBuilder<AiDatabase, 'knowledge_docs'>, dialect: Dialect, text: string) {
  const op = sql.raw(likeOperator(dialect))
  const pattern = likePattern(text)
  return sql<boolean>`(${eb.ref('title')} ${op} ${pattern} escape '\\' or ${eb.ref('content')} ${op} ${pattern} escape '\\')`
}

/** Docs of the scope holding any of the tokens in the title or the content, newest first, at most `max` (assist). */
export async function docCandidates(db: Db, dialect: Dialect, scope: Scope, tokens: string[], max: number) {
  if (tokens.length === 0) return []
  const rows = await whereScope(from(db), scope)
    .select(DOC_COLUMNS)
    .where((eb) => eb.or(tokens.map((tok) => containsText(eb, dialect, tok))))
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(max)
    .execute()
  return rows.map(toDoc)
}
