// The agent console's build: made through turbo's task graph and cached (an unchanged console is never rebuilt by
// `npm start`, `npm run fleet` or `npm test`), no inline script (the gateway's CSP allows none), and a first load
// within its size budget.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { DEFAULT_CONSOLE_DIR } from '@switchboard/gateway/config.ts'
import t from 'tap'
import { CONSOLE_DIST, ensureConsoleBuild, firstLoad, isolatedConsoleWorkspace, ROOT } from './harness/console-build.ts'

const run = promisify(execFile)

/**
 * Bytes gzip of a first visit (index.html + the JS and CSS it names; lazy chunks excluded). Set from the build of
 * 27 Nov 2026 (≈ 101 KB: React 19, TanStack Query, the shell and login) with room for the inbox, conversation and
 * ticket screens; a feature that does not fit goes in a lazy chunk.
 */
const FIRST_LOAD_BUDGET_BYTES = 200 * 1024

t.test('an unchanged console is a turbo cache hit: built once, then restored, never rebuilt', async (t) => {
  const ws = isolatedConsoleWorkspace()
  t.teardown(() => rmSync(ws, { recursive: true, force: true }))
  const build = () =>
    run('bash', [join(ws, 'scripts/build-console.sh')], { cwd: ws, env: process.env, maxBuffer: 64 * 1024 * 1024 })

  const first = await build()
  t.match(first.stdout, /cache miss, executing/, 'the first build runs')
  t.match(first.stdout, /vite v\d/, 'Vite built it')
  t.ok(existsSync(join(ws, 'apps/console/dist/index.html')), 'into dist/')
  rmSync(join(ws, 'apps/console/dist'), { recursive: true })

  const second = await build()
  t.match(second.stdout, /cache hit/, 'the second is a cache hit')
  t.match(second.stdout, /FULL TURBO/)
  t.notMatch(second.stdout, /vite v\d|precompress:/, 'nothing is rebuilt')
  t.ok(existsSync(join(ws, 'apps/console/dist/index.html')), 'dist/ is restored from .turbo/cache')
})

t.test('index.html runs no inline script and loads its assets from /assets', async (t) => {
  await ensureConsoleBuild()
  const html = readFileSync(join(CONSOLE_DIST, 'index.html'), 'utf8')
  const scripts = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []
  t.ok(scripts.length > 0, 'a script')
  for (const s of scripts) {
    t.match(s, /\bsrc="\/assets\/[^"]+\.js"/, 'external, content-hashed')
    t.match(s, /^<script\b[^>]*>\s*<\/script>$/, 'nothing inline')
  }
  t.notMatch(html, /\bon[a-z]+="/i, 'no inline event handlers')
  t.notMatch(html, /<style\b/i, 'no inline style element')
})

t.test(`the first load is within ${FIRST_LOAD_BUDGET_BYTES / 1024} KiB gzip`, async (t) => {
  await ensureConsoleBuild()
  const files = firstLoad()
  const total = files.reduce((sum, f) => sum + f.gzip, 0)
  t.comment(files.map((f) => `${f.url}: ${f.raw} B, ${f.gzip} B gzip`).join('\n'))
  t.comment(`first load: ${total} B gzip (budget ${FIRST_LOAD_BUDGET_BYTES} B)`)
  t.ok(
    files.some((f) => f.url.endsWith('.js')),
    'the entry script is counted',
  )
  t.ok(total <= FIRST_LOAD_BUDGET_BYTES, `${total} B gzip ≤ ${FIRST_LOAD_BUDGET_BYTES} B`)
})

t.test('npm start, npm run fleet, npm test and the image build the console through the same turbo task', async (t) => {
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
  t.match(read('scripts/toolchain.sh'), /start\|fleet\|bench\) bash "\$root\/scripts\/build-console\.sh"/)
  t.match(read('scripts/test.sh'), /bash scripts\/build-console\.sh/)
  t.match(read('scripts/build-console.sh'), /turbo" run build --filter=@switchboard\/console/)
  const dockerfile = read('deploy/Dockerfile')
  t.match(dockerfile, /turbo run build --filter=@switchboard\/console/, 'built in its own stage')
  t.match(dockerfile, /COPY --from=console \/app\/apps\/console\/dist apps\/console\/dist/, 'the image ships dist/')
  // the gateway's default CONSOLE_DIR is that directory, in the repository and in the image (/app)
  t.equal(relative(ROOT, DEFAULT_CONSOLE_DIR), 'apps/console/dist')
  const turbo = JSON.parse(read('turbo.json'))
  t.same(turbo.tasks.build.outputs, ['dist/**'])
  t.equal(turbo.remoteCache.enabled, false, 'no remote cache')
  t.ok(
    ['lint', 'typecheck', 'test'].every((task) => task in turbo.tasks),
    'build, lint, typecheck, test',
  )
})
