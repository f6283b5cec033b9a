import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export interface ConsoleOptions {
  /** the console's build output (apps/console/dist): index.html and hashed files under assets/ */
  dir: string
}

/** No inline script or style anywhere in the build, so none is allowed; the hub socket is same-origin ('self'). */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

/** First path segments that belong to the API and the gateway's own routes: never answered with the console. */
const RESERVED = new Set([
  'api',
  'public',
  'help',
  'csat',
  'uploads',
  'health',
  'ready',
  'metrics',
  'openapi.json',
  'docs',
])

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Switchboard console not built</title></head>
<body><h1>The agent console is not built</h1>
<p>The gateway serves the console from %DIR%, which has no index.html.</p>
<p>Build it from the repository root with <code>npx turbo run build --filter=@switchboard/console</code>
(<code>npm start</code> and <code>npm run fleet</code> do this first), or point CONSOLE_DIR at a build.</p>
<p>The API is unaffected: it is served under /api.</p></body></html>
`

/**
 * The agent console at `/`: files of its build, and index.html for the single-page app's own routes (a GET
 * asking for HTML on any path outside the API and the gateway's routes). index.html is revalidated on every load;
 * files under /assets are content-hashed by Vite, so cached for a year. The console's files are public: the API
 * behind them keeps every policy. Answers the build as it is on disk, so a rebuild needs no restart.
 */
export async function consoleRoutes(app: FastifyInstance, opts: ConsoleOptions) {
  const root = resolve(opts.dir)
  const index = join(root, 'index.html')
  // serve: false — only reply.sendFile (path checks, ETag, ranges, HEAD); routing and caching are decided here.
  // preCompressed: the build's .br/.gz siblings (apps/console/scripts/precompress.ts) go to a browser accepting them.
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    dotfiles: 'deny',
    cacheControl: false,
    preCompressed: true,
    suppressWarning: true,
  })

  function sendIndex(reply: FastifyReply) {
    reply.headers(SECURITY_HEADERS)
    if (!existsSync(index)) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT.replace('%DIR%', escapeHtml(root)))
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html')
  }

  const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html')

  app.get('/', (_request, reply) => sendIndex(reply))
  app.get('/*', (request, reply) => {
    const path = (request.params as { '*': string })['*']
    const first = path.split('/', 1)[0]!
    if (RESERVED.has(first)) return reply.callNotFound()
    const last = path.slice(path.lastIndexOf('/') + 1)
    // a file of the build (it has an extension): served, or 404 — never index.html in place of a missing script
    if (last.includes('.')) {
      reply.headers(SECURITY_HEADERS)
      reply.header(
        'cache-control',
        path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      )
      return reply.sendFile(path)
    }
    if (!wantsHtml(request)) return reply.callNotFound()
    return sendIndex(reply)
  })
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
