import { createHash } from 'node:crypto'

// The demo website at /demo (DEMO_SITE; on in `npm start`): a made-up shop with the widget embedded by its one tag,
// so a newcomer plays the customer in one tab and the agent in the console in another.

const STYLE = `
:root{color-scheme:light;font-family:system-ui,sans-serif;line-height:1.5;color:#1d2433;background:#fbf8f3}
body{margin:0}
header{background:#3b2a1f;color:#fff;padding:1.25rem 2rem}
header p{margin:0;color:#f1e6da}
main{max-width:46rem;margin:0 auto;padding:1.5rem 2rem 6rem}
h1{margin:0 0 .25rem;font-size:1.75rem}
h2{font-size:1.2rem;margin-top:2rem}
ul{padding-left:1.2rem}
.note{background:#fff;border:1px solid #e2d7ca;border-radius:8px;padding:1rem}
code{background:#f1ebe3;padding:0 .25rem;border-radius:4px}
`

/** The inline sheet is allowed by its hash: nothing else inline runs or applies. */
export const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "frame-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function demoPage(tenantId: string, workspaceId: string) {
  const tenant = escapeHtml(tenantId)
  const workspace = escapeHtml(workspaceId)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Coffee — Switchboard widget demo</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Northwind Coffee</h1><p>Small-batch roasts, shipped on Mondays.</p></header>
<main>
<p class="note">This is a demo website for the Switchboard chat widget (scope <code>${tenant}</code> /
<code>${workspace}</code>). Open the chat with the button at the bottom right and write as a customer; answer as
the agent in the <a href="/">agent console</a> in another tab.</p>
<h2>This week's roasts</h2>
<ul>
<li>Ethiopia Guji — jasmine, peach, bergamot</li>
<li>Colombia Huila — red apple, cocoa, panela</li>
<li>House espresso — hazelnut, dark chocolate</li>
</ul>
<h2>Shipping</h2>
<p>Orders placed before Sunday night are roasted and shipped on Monday. Questions about an order? Ask us in the
chat.</p>
<h2>Embed it on your site</h2>
<p>One tag, before <code>&lt;/body&gt;</code>:</p>
<p><code>&lt;script src="/widget.js" data-tenant="${tenant}" data-workspace="${workspace}" async&gt;&lt;/script&gt;</code></p>
</main>
<script src="/widget.js" data-tenant="${tenant}" data-workspace="${workspace}" async></script>
</body>
</html>
`
}
