import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

const run = promisify(execFile)
export const ROOT = new URL('../../', import.meta.url).pathname
/** where the gateway serves the console from by default (CONSOLE_DIR) */
export const CONSOLE_DIST = join(ROOT, 'apps/console/dist')

/** scripts/build-console.sh (turbo run build of @switchboard/console and @switchboard/widget) with extra turbo options. */
export async function buildConsole(...args: string[]) {
  const { stdout, stderr } = await run('bash', [join(ROOT, 'scripts/build-console.sh'), ...args], {
    cwd: ROOT,
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  })
  return { stdout, stderr }
}

/**
 * A copy of the repository reduced to what the apps' build reads (root manifests, turbo.json, the build
 * script, apps/console's and apps/widget's sources), its node_modules linked to this checkout's: turbo's cache can be shown there
 * without touching the dist/ that other test files serve, nor depending on nobody editing the console meanwhile.
 * No .git: turbo hashes the files itself, as in the image's build stage.
 */
export function isolatedConsoleWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-ws-'))
  for (const f of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'turbo.json', 'tsconfig.base.json'])
    cpSync(join(ROOT, f), join(dir, f))
  mkdirSync(join(dir, 'scripts'))
  cpSync(join(ROOT, 'scripts/build-console.sh'), join(dir, 'scripts/build-console.sh'))
  const skip = new Set(['node_modules', 'dist', '.turbo', '.tap'])
  for (const app of ['apps/console', 'apps/widget']) {
    cpSync(join(ROOT, app), join(dir, app), {
      recursive: true,
      filter: (src) => !skip.has(basename(src)) && !/^dist-/.test(basename(src)),
    })
    symlinkSync(join(ROOT, app, 'node_modules'), join(dir, app, 'node_modules'))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

/**
 * The build the gateway serves. `npm test` builds it before tap (scripts/test.sh); a file run alone builds it when
 * missing. Never rebuilt while present: other test files may be reading it.
 */
export async function ensureConsoleBuild() {
  if (!existsSync(join(CONSOLE_DIST, 'index.html'))) await buildConsole()
  return CONSOLE_DIST
}

/** What a first visit downloads: index.html and the scripts, module preloads and stylesheets it names. */
export function firstLoad(dist = CONSOLE_DIST) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const urls = new Set<string>()
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const ref = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1]
    if (!ref || /^[a-z]+:|^\/\//i.test(ref)) continue
    if (tag.startsWith('<link') && !/\brel="(stylesheet|modulepreload)"/.test(tag)) continue
    urls.add(ref)
  }
  const files = [
    { url: '/', bytes: Buffer.from(html) },
    ...[...urls].map((url) => ({ url, bytes: readFileSync(join(dist, url.replace(/^\//, ''))) })),
  ]
  return files.map((f) => ({ url: f.url, raw: f.bytes.length, gzip: gzipSync(f.bytes).length }))
}
