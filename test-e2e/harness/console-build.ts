import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

const run = promisify(execFile)
export const ROOT = new URL('../../', import.meta.url).pathname
/** where the gateway serves the console from by default (CONSOLE_DIR) */
export const CONSOLE_DIST = join(ROOT, 'apps/console/dist')

/** scripts/build-console.sh (turbo run build --filter=@switchboard/console) with extra turbo options. */
export async function buildConsole(...args: string[]) {
  const { stdout, stderr } = await run('bash', [join(ROOT, 'scripts/build-console.sh'), ...args], {
    cwd: ROOT,
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  })
  return { stdout, stderr }
}

/** The console's build task as turbo would run it now: its hash and whether the local cache has it. */
export async function consoleBuildStatus() {
  const { stdout } = await buildConsole('--dry=json')
  const summary = JSON.parse(stdout) as { tasks: Array<{ taskId: string; hash: string; cache: { status: string } }> }
  const task = summary.tasks.find((x) => x.taskId === '@switchboard/console#build')
  if (!task) throw new Error('turbo planned no @switchboard/console#build task')
  return { hash: task.hash, status: task.cache.status }
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
