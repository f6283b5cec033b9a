// The host sites of the widget's browser tests: a small real web server on another origin than the gateway, and a
// customer's page that embeds the one tag.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { System } from '../harness/system.ts'

/**
 * A small real web server on its own port (its own origin), answering `pages[path]` as HTML, with the
 * Content-Security-Policy `csp[path]` when there is one.
 */
export async function site(
  t: Test,
  pages: (path: string, query: URLSearchParams) => string | undefined,
  csp: Record<string, string> = {},
) {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const html = pages(url.pathname, url.searchParams)
    if (html === undefined) return res.writeHead(404).end()
    const policy = csp[url.pathname]
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        ...(policy ? { 'content-security-policy': policy } : {}),
      })
      .end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A customer's page: some content and, at its end, the one tag. */
export function hostPage(
  system: System,
  opts: { tenant?: string; workspace?: string; head?: string; attrs?: string } = {},
) {
  const tenant = opts.tenant ?? system.tenant_id
  const workspace = opts.workspace ?? system.workspace_id
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind shop</title>${opts.head ?? ''}</head>
<body><main><h1>Northwind shop</h1><p id="content">Everything for the garden.</p></main>
<script src="${system.url}/widget.js" data-tenant="${tenant}" data-workspace="${workspace}" ${opts.attrs ?? ''} async></script>
</body></html>`
}

// A page trying to hide or cover everything: every element of the body hidden, shrunk and pushed back, the widget's
// own element and any iframe or button named too, and an overlay at the highest z-index over the whole viewport.
export const HOSTILE = `<style>
body *, switchboard-widget, iframe, button, div { display: none !important; visibility: hidden !important;
  opacity: 0 !important; width: 0 !important; height: 0 !important; position: static !important;
  z-index: -1 !important; pointer-events: none !important; transform: scale(0) !important; }
body::after { content: ""; position: fixed; inset: 0; z-index: 2147483647; background: rgba(0, 0, 0, 0.6); }
</style>`
