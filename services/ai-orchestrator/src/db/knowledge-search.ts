import type { Dialect, Scope } from '@switchboard/platform'
import { type Kysely, type Selectable, sql } from 'kysely'
import { fullTextTerms, queryTokens, termShare, tokenScore } from '../domain/search-terms.ts'
import type { KnowledgeDoc } from '../schemas/knowledge-docs.schemas.ts'
import type { AiDatabase, KnowledgeDocsTable } from './database.ts'
import { containsText, DOC_COLUMNS, toDoc } from './knowledge-docs.repository.ts'

type Db = Kysely<AiDatabase>

export interface DocHit {
  doc: KnowledgeDoc
  /** 0..1, higher is better */
  score: number
}

/** Docs a substring search looks at when the full-text index finds nothing (newest first). */
const SUBSTRING_CANDIDATES = 200

/**
 * The docs of exactly `scope` that best match a free-text query, best first (the local knowledge base).
 *
 * Full text first, any of the query's words (OR), ranked by the engine: PostgreSQL `ts_rank` over the weighted
 * tsvector (title A, content B), SQLite FTS5 `bm25` (title weighted 2.5 to match). Raw ranks are not comparable
 * between engines, nor between queries (bm25 on a small knowledge base gives a word found in half the docs almost
 * no weight), so the score is built the same way on both: half the share of the query's words the doc holds, half
 * its rank relative to the best hit — 1 for the best doc holding every word, never above. The best few by rank are
 * re-ordered by that score.
 *
 * When the index finds nothing — Chinese and Japanese text has no spaces, so a word inside a sentence is no token
 * of it — the query's tokens (each Han character alone) are looked for as substrings, scored by the share found
 * (tokenScore, domain/search-terms.ts). The query reaches SQL only as bound words of letters and digits (domain/search-terms.ts), so no
 * input can break either engine's query parser.
 */
export async function searchDocs(
  db: Db,
  dialect: Dialect,
  scope: Scope,
  query: string,
  limit: number,
): Promise<DocHit[]> {
  const terms = fullTextTerms(query)
  if (terms.length === 0) return []
  const window = Math.min(RERANK_WINDOW, limit * 3)
  const rows =
    dialect === 'postgres' ? await rankPostgres(db, scope, terms, window) : await rankSqlite(db, scope, terms, window)
  if (rows.length === 0) return substringHits(db, dialect, scope, query, limit)
  const best = Math.max(...rows.map((r) => r.rank))
  return rows
    .map(({ row, rank }) => {
      const relative = best > 0 ? rank / best : 1
      const score = 0.5 * termShare(terms, `${row.title} ${row.content}`) + 0.5 * relative
      return { doc: toDoc(row), score: round(Math.min(1, Math.max(0, score))) }
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}

/** Hits taken by the engine's rank before the score re-orders them. */
const RERANK_WINDOW = 100

interface RankedRow {
  row: Selectable<KnowledgeDocsTable>
  /** higher is better, ≥ 0 */
  rank: number
}

type Ranked = Selectable<KnowledgeDocsTable> & { rank: number | string }

const columns = sql.join(DOC_COLUMNS.map((c) => sql.ref(`d.${c}`)))
const round = (n: number) => Math.round(n * 1000) / 1000

async function rankPostgres(db: Db, scope: Scope, terms: string[], limit: number): Promise<RankedRow[]> {
  // to_tsquery on words of letters and digits only: `a | b | c`, never a syntax error
  const { rows } = await sql<Ranked>`
    select ${columns}, ts_rank(d.search, q) as rank
    from knowledge_docs d, to_tsquery('simple', ${terms.join(' | ')}) q
    where d.tenant_id = ${scope.tenant_id} and d.workspace_id = ${scope.workspace_id} and d.search @@ q
    order by rank desc, d.updated_at desc
    limit ${limit}`.execute(db)
  return rows.map(({ rank, ...row }) => ({ row, rank: Math.max(0, Number(rank)) }))
}

async function rankSqlite(db: Db, scope: Scope, terms: string[], limit: number): Promise<RankedRow[]> {
  // each word a quoted FTS5 string joined by OR; the words hold no quote, so none can end its string early
  const match = terms.map((t) => `"${t}"`).join(' OR ')
  const { rows } = await sql<Ranked>`
    select ${columns}, bm25(knowledge_docs_fts, 0.0, 2.5, 1.0) as rank
    from knowledge_docs_fts f join knowledge_docs d on d.id = f.doc_id
    where knowledge_docs_fts match ${match} and d.tenant_id = ${scope.tenant_id} and d.workspace_id = ${scope.workspace_id}
    order by rank, d.updated_at desc
    limit ${limit}`.execute(db)
  // bm25 is negative, lower is better
  return rows.map(({ rank, ...row }) => ({ row, rank: Math.max(0, -Number(rank)) }))
}

async function substringHits(db: Db, dialect: Dialect, scope: Scope, query: string, limit: number): Promise<DocHit[]> {
  const tokens = queryTokens(query)
  if (tokens.length === 0) return []
  const rows = await db
    .selectFrom('knowledge_docs')
    .select(DOC_COLUMNS)
    .where('tenant_id', '=', scope.tenant_id)
    .where('workspace_id', '=', scope.workspace_id)
    .where((eb) => eb.or(tokens.map((tok) => containsText(eb, dialect, tok))))
    .orderBy('updated_at', 'desc')
    .limit(SUBSTRING_CANDIDATES)
    .execute()
  return rows
    .map((row) => ({ doc: toDoc(row), score: tokenScore(tokens, `${row.title}\n${row.content}`) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}
