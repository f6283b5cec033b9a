// The widget's size budgets (issue 21), measured on the build the gateway serves: the loader every page of a
// customer's site downloads, and the chat frame's first load (its HTML and every script, module preload and
// stylesheet it names — what is fetched before the composer can be used; lazy chunks excluded).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { firstLoad } from './harness/console-build.ts'
import { ensureWidgetBuild } from './harness/widget-build.ts'

const LOADER_BUDGET_BYTES = 3 * 1024
const FRAME_FIRST_LOAD_BUDGET_BYTES = 35 * 1024

t.test(`the loader (widget.js) is within ${LOADER_BUDGET_BYTES} B gzip`, async (t) => {
  const dist = await ensureWidgetBuild()
  const raw = readFileSync(join(dist, 'widget.js'))
  const gzip = gzipSync(raw).length
  t.comment(`widget.js: ${raw.length} B, ${gzip} B gzip (budget ${LOADER_BUDGET_BYTES} B)`)
  t.ok(raw.length > 500, 'a real loader, not an empty file')
  t.notMatch(raw.toString(), /^\s*(import|export)\s/m, 'one classic script (IIFE), no module syntax')
  t.ok(gzip <= LOADER_BUDGET_BYTES, `${gzip} B gzip ≤ ${LOADER_BUDGET_BYTES} B`)
})

t.test(`the frame's first load is within ${FRAME_FIRST_LOAD_BUDGET_BYTES / 1024} KiB gzip`, async (t) => {
  const dist = join(await ensureWidgetBuild(), 'frame')
  const files = firstLoad(dist)
  const total = files.reduce((sum, f) => sum + f.gzip, 0)
  t.comment(files.map((f) => `${f.url}: ${f.raw} B, ${f.gzip} B gzip`).join('\n'))
  t.comment(`frame first load: ${total} B gzip (budget ${FRAME_FIRST_LOAD_BUDGET_BYTES} B)`)
  t.ok(
    files.some((f) => f.url.endsWith('.js')),
    'the entry script is counted',
  )
  t.ok(total <= FRAME_FIRST_LOAD_BUDGET_BYTES, `${total} B gzip ≤ ${FRAME_FIRST_LOAD_BUDGET_BYTES} B`)
})

t.test('the frame runs no inline script or style (its CSP allows none)', async (t) => {
  const html = readFileSync(join(await ensureWidgetBuild(), 'frame/index.html'), 'utf8')
  const scripts = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []
  t.ok(scripts.length > 0, 'a script')
  for (const s of scripts) t.match(s, /^<script\b[^>]*\bsrc="\.\/assets\/[^"]+\.js"[^>]*>\s*<\/script>$/, 'external')
  t.notMatch(html, /\bon[a-z]+="/i, 'no inline event handlers')
  t.notMatch(html, /<style\b/i, 'no style element')
})
