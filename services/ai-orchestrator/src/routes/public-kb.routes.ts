import { errorResponses, pageOf, pageWindow, type RouteModule, type Scope } from '@switchboard/platform'
import type { AiService } from '../context.ts'
import { exactly, findDocIn, listDocs } from '../db/knowledge-docs.repository.ts'
import { AiErrors } from '../errors.ts'
import {
  type KnowledgeDoc,
  KnowledgeDocParams,
  PublicKbDoc,
  PublicKbDocPage,
  PublicKbDocQuery,
  PublicKbQuery,
} from '../schemas/knowledge-docs.schemas.ts'

const tags = ['public-kb']

/** The portal's scope from `?tenant_id=&workspace_id=`; none → the system's ('' / ''). */
const portalScope = (q: { tenant_id?: string | undefined; workspace_id?: string | undefined }): Scope => ({
  tenant_id: q.tenant_id ?? '',
  workspace_id: q.workspace_id ?? '',
})

const publicView = (d: KnowledgeDoc): PublicKbDoc => ({
  id: d.id,
  title: d.title,
  content: d.content,
  category: d.category,
  tags: d.tags,
  created_at: d.created_at,
  updated_at: d.updated_at,
})

/**
 * The public knowledge base, anonymous: the public docs of exactly the scope the portal names.
 * A doc that exists but is not public answers 404 with the missing doc's code and "document is not public".
 */
export const publicKbRoutes: RouteModule<AiService> = async (app, svc) => {
  app.get(
    '/public/kb/docs',
    { schema: { tags, querystring: PublicKbQuery, response: { 200: PublicKbDocPage, ...errorResponses(400) } } },
    async (request) => {
      const window = pageWindow(request.query)
      const filters = { search: request.query.search, public_only: true }
      const { rows, total } = await listDocs(svc.db, svc.dialect, exactly(portalScope(request.query)), filters, window)
      return pageOf(rows.map(publicView), total, window)
    },
  )

  app.get(
    '/public/kb/docs/:id',
    {
      schema: {
        tags,
        params: KnowledgeDocParams,
        querystring: PublicKbDocQuery,
        response: { 200: PublicKbDoc, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const doc = await findDocIn(svc.db, request.params.id, portalScope(request.query))
      if (!doc) throw new AiErrors.DocNotFound(request.params.id)
      if (!doc.is_public) throw new AiErrors.DocNotPublic()
      return publicView(doc)
    },
  )
}
