import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DEMO_CSP, demoPage } from './widget-demo.ts'
import { frameAncestors, PolicyBadScope, type WidgetPolicy } from './widget-policy.ts'

export interface WidgetOptions {
  /** the widget's build output (apps/widget/dist): widget.js, frame/index.html, frame/assets/* */
  dir: string
  policy: WidgetPolicy
  demo: { enabled: boolean; tenant_id: string; workspace_id: string }
}

/**
 * The frame's policy: only its own scripts and styles (Vite's build has nothing inline), its API and hub socket on
 * this origin, brand logos from anywhere over https; framed only by the scope's allowed sites.
 */
export function frameCsp(ancestors: string) {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: https:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ')
}

const COMMON = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' }

const NOT_BUILT =
  'The chat widget is not built: run  npx turbo run build --filter=@switchboard/widget  (npm start does).'

/**
 * The chat widget: the loader a site embeds (`/widget.js`, cross-origin by design), the chat app its iframe shows
 * (`/widget/`, framed only by the scope's allowed sites — never X-Frame-Options, which cannot list them), and the
 * demo website (`/demo`) when enabled. Answers the build as it is on disk, like the console.
 */
export async function widgetRoutes(app: FastifyInstance, opts: WidgetOptions) {
  const root = resolve(opts.dir)
  // serve: false — routing and caching are decided here; .br/.gz siblings (apps/console/scripts/precompress.ts) when accepted
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    dotfiles: 'deny',
    cacheControl: false,
    preCompressed: true,
    suppressWarning: true,
  })

  app.get('/widget.js', (_request, reply) => {
    reply.headers(COMMON)
    // a host page with Cross-Origin-Embedder-Policy may still load it
    reply.header('cross-origin-resource-policy', 'cross-origin')
    if (!existsSync(join(root, 'widget.js')))
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/javascript')
        .send(`console.error(${JSON.stringify(NOT_BUILT)})\n`)
    return reply.header('cache-control', 'public, max-age=300').sendFile('widget.js')
  })

  // /widget → /widget/ with its query: the frame's assets are linked relative to the directory
  app.get('/widget', (request, reply) => {
    const q = request.url.indexOf('?')
    return reply.redirect(`/widget/${q < 0 ? '' : request.url.slice(q)}`, 301)
  })

  async function sendFrame(request: FastifyRequest, reply: FastifyReply) {
    // the scope as the frame's own script reads it (URLSearchParams: the first of repeated names), so the policy
    // applied is the one of the scope the chat will speak for
    const q = request.url.indexOf('?')
    const params = new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1))
    const tenant = params.get('tenant_id') ?? ''
    const workspace = params.get('workspace_id') ?? ''
    reply.headers(COMMON).header('cache-control', 'no-cache')
    let ancestors: string
    try {
      // no scope named: nothing to chat for, no policy to apply
      ancestors = tenant && workspace ? frameAncestors(await opts.policy.allowedOrigins(tenant, workspace)) : '*'
    } catch (err) {
      const bad = err instanceof PolicyBadScope
      return reply
        .code(bad ? 400 : 503)
        .header('content-security-policy', frameCsp("'none'"))
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(bad ? 'This chat is not configured for that workspace.' : 'The chat is unavailable; try again shortly.')
    }
    reply.header('content-security-policy', frameCsp(ancestors))
    if (!existsSync(join(root, 'frame', 'index.html')))
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT)
    return reply.sendFile('frame/index.html')
  }

  app.get('/widget/', sendFrame)
  app.get('/widget/*', (request, reply) => {
    const path = (request.params as { '*': string })['*']
    if (path === '' || path === 'index.html') return sendFrame(request, reply)
    reply.headers(COMMON).header('cross-origin-resource-policy', 'same-origin')
    reply.header(
      'cache-control',
      path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
    )
    return reply.sendFile(`frame/${path}`)
  })

  app.get('/demo', (_request, reply) => {
    if (!opts.demo.enabled) return reply.callNotFound()
    return reply
      .headers(COMMON)
      .header('content-security-policy', DEMO_CSP)
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(demoPage(opts.demo.tenant_id, opts.demo.workspace_id))
  })
}
