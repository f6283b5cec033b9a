import { type Static, Type } from '@sinclair/typebox'
import { Nullable, PageQuery, Paginated, Timestamp } from '@switchboard/contracts'

const Title = Type.String({ minLength: 1, maxLength: 500 })
const Content = Type.String({ minLength: 1, maxLength: 200_000 })
const Category = Type.String({ minLength: 1, maxLength: 64 })
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })
const Search = Type.String({ minLength: 1, maxLength: 200, description: 'every word in the title or the content' })

export const KnowledgeDoc = Type.Object({
  id: Type.String(),
  tenant_id: Type.String(),
  workspace_id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  category: Type.String(),
  tags: Type.Array(Type.String()),
  is_public: Type.Boolean(),
  /** the external provider holding a copy (primary | compatibility), null when only local */
  provider_id: Nullable(Type.String()),
  external_id: Nullable(Type.String()),
  /** why the last write did not reach the external provider; null when it did (or there was none) */
  sync_error: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type KnowledgeDoc = Static<typeof KnowledgeDoc>

export const KnowledgeDocPage = Paginated(KnowledgeDoc)

/** What a write did with the external provider: `local_only` when none is active. */
export const SyncResult = Type.Object({
  provider: Nullable(Type.String()),
  status: Type.Union([Type.Literal('synced'), Type.Literal('failed'), Type.Literal('local_only')]),
  error: Type.Optional(Type.String()),
})
export type SyncResult = Static<typeof SyncResult>

/** A written doc and what happened in the provider. */
export const KnowledgeDocWritten = Type.Composite([KnowledgeDoc, Type.Object({ sync: SyncResult })])
export type KnowledgeDocWritten = Static<typeof KnowledgeDocWritten>

export const KnowledgeDocParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

export const ListKnowledgeDocsQuery = Type.Object({
  ...PageQuery.properties,
  category: Type.Optional(Category),
  search: Type.Optional(Search),
  public_only: Type.Optional(Type.Boolean()),
})
export type ListKnowledgeDocsQuery = Static<typeof ListKnowledgeDocsQuery>

export const CreateKnowledgeDocBody = Type.Object(
  {
    title: Title,
    content: Content,
    category: Type.Optional(Category),
    tags: Type.Optional(Tags),
    is_public: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
)
export type CreateKnowledgeDocBody = Static<typeof CreateKnowledgeDocBody>

export const UpdateKnowledgeDocBody = Type.Object(
  {
    title: Type.Optional(Title),
    content: Type.Optional(Content),
    category: Type.Optional(Category),
    tags: Type.Optional(Tags),
    is_public: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type UpdateKnowledgeDocBody = Static<typeof UpdateKnowledgeDocBody>

export const Deleted = Type.Object({ message: Type.Literal('deleted') })

/** A doc of the public knowledge base: no scope, provider or sync details. */
export const PublicKbDoc = Type.Object({
  id: Type.String(),
  title: Type.String(),
  content: Type.String(),
  category: Type.String(),
  tags: Type.Array(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type PublicKbDoc = Static<typeof PublicKbDoc>

export const PublicKbDocPage = Paginated(PublicKbDoc)

/** The portal's scope (`?tenant_id=&workspace_id=`); none → the system scope. */
const ScopeParam = Type.String({ maxLength: 64 })
export const PublicKbQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Search),
  tenant_id: Type.Optional(ScopeParam),
  workspace_id: Type.Optional(ScopeParam),
})
export type PublicKbQuery = Static<typeof PublicKbQuery>

export const PublicKbDocQuery = Type.Object({
  tenant_id: Type.Optional(ScopeParam),
  workspace_id: Type.Optional(ScopeParam),
})
