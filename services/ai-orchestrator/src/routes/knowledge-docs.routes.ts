import { callerOf, errorResponses, pageOf, pageWindow, type RouteModule, scopeOf } from '@switchboard/platform'
import { createDoc, removeDoc, updateDoc } from '../commands/knowledge-doc.commands.ts'
import type { AiService } from '../context.ts'
import { findDoc, inScopeOf, listDocs } from '../db/knowledge-docs.repository.ts'
import { AiErrors } from '../errors.ts'
import {
  CreateKnowledgeDocBody,
  Deleted,
  KnowledgeDoc,
  KnowledgeDocPage,
  KnowledgeDocParams,
  KnowledgeDocWritten,
  ListKnowledgeDocsQuery,
  UpdateKnowledgeDocBody,
} from '../schemas/knowledge-docs.schemas.ts'

const tags = ['knowledge-docs']

// the audit record carries the doc's own scope, so an unscoped administrator's change lands in the tenant it touched
const scopeOfDoc = (d: KnowledgeDoc) => ({ tenant_id: d.tenant_id, workspace_id: d.workspace_id })

/**
 * `/api/knowledge-docs` (the gateway checks `knowledge.read` / `knowledge.write`): the local
 * knowledge base, each write upserted into the active external provider. Records are scoped: another tenant's doc
 * is a 404 like a missing one.
 */
export const knowledgeDocRoutes: RouteModule<AiService> = async (app, svc) => {
  app.get(
    '/api/knowledge-docs',
    {
      schema: {
        tags,
        querystring: ListKnowledgeDocsQuery,
        response: { 200: KnowledgeDocPage, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const window = pageWindow(request.query)
      const { rows, total } = await listDocs(svc.db, svc.dialect, inScopeOf(scopeOf(request)), request.query, window)
      return pageOf(rows, total, window)
    },
  )

  app.get(
    '/api/knowledge-docs/:id',
    { schema: { tags, params: KnowledgeDocParams, response: { 200: KnowledgeDoc, ...errorResponses(401, 404) } } },
    async (request) => {
      const doc = await findDoc(svc.db, request.params.id, scopeOf(request))
      if (!doc) throw new AiErrors.DocNotFound(request.params.id)
      return doc
    },
  )

  app.post(
    '/api/knowledge-docs',
    {
      schema: {
        tags,
        body: CreateKnowledgeDocBody,
        response: { 201: KnowledgeDocWritten, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const doc = await createDoc(svc, callerOf(request), request.body)
      request.audit = { ...request.audit, ...scopeOfDoc(doc), resource_id: doc.id, after: doc }
      return reply.code(201).send(doc)
    },
  )

  app.put(
    '/api/knowledge-docs/:id',
    {
      schema: {
        tags,
        params: KnowledgeDocParams,
        body: UpdateKnowledgeDocBody,
        response: { 200: KnowledgeDocWritten, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { before, after } = await updateDoc(svc, callerOf(request), request.params.id, request.body)
      request.audit = { ...request.audit, ...scopeOfDoc(after), resource_id: after.id, before, after }
      return after
    },
  )

  app.delete(
    '/api/knowledge-docs/:id',
    {
      schema: {
        tags,
        params: KnowledgeDocParams,
        response: { 200: Deleted, ...errorResponses(401, 404, 409, 502, 504) },
      },
    },
    async (request) => {
      request.audit = { ...request.audit, resource_id: request.params.id }
      const before = await removeDoc(svc, callerOf(request), request.params.id)
      request.audit = { ...request.audit, ...scopeOfDoc(before), before }
      return { message: 'deleted' as const }
    },
  )
}
