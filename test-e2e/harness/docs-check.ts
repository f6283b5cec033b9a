// What the docs check (test-e2e/docs.test.ts) reads: which Markdown it covers, which of its code spans and links
// name a file of the repository, and which words cite a document the repository does not hold.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

/** Folders no check walks into: installed, built or generated things (.gitignore's); dot-folders (.git, .turbo…) too. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage'])

/** Paths a build or a run makes, not the repository (.gitignore's `dist/` and `data/`): named, never checked. */
const GENERATED = /(^|\/)(dist|data|coverage)(\/|$)/

/** Every file under `root` (repository-relative paths), skipping SKIPPED_DIRS. */
export function walk(root: string, dir = root): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) out.push(...walk(root, join(dir, entry.name)))
    } else if (entry.isFile()) out.push(relative(root, join(dir, entry.name)))
  }
  return out
}

/** The Markdown the check covers: every README.md (root, packages, services, apps, gateway) and docs/*.md. */
export function docFiles(files: readonly string[]): string[] {
  return files.filter((f) => f.endsWith('README.md') || /^docs\/[^/]+\.md$/.test(f)).sort()
}

/** A place in a document that names something: the text as written and its line. */
export interface Mention {
  text: string
  line: number
  /** a code span, or a link's target (which Markdown reads from the document's folder) */
  kind?: 'code' | 'link'
}

/** Code spans (`…`) and link targets ((…) after ]) of a Markdown text; fenced code blocks are left out. */
export function mentions(markdown: string): Mention[] {
  const out: Mention[] = []
  let fenced = false
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return
    }
    if (fenced) return
    for (const m of line.matchAll(/`([^`]+)`/g)) out.push({ text: m[1]!, line: i + 1, kind: 'code' })
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ text: m[1]!, line: i + 1, kind: 'link' })
  })
  return out
}

/** The repository's files and folders (repository-relative, folders without a trailing slash). */
export interface Tree {
  entries: ReadonlySet<string>
  topLevel: ReadonlySet<string>
  /** the last segment of every entry: what a bare file name (`build.ts`) must be one of */
  names: ReadonlySet<string>
}

export function treeOf(files: readonly string[]): Tree {
  const entries = new Set<string>()
  for (const f of files) {
    const parts = f.split('/')
    for (let i = 1; i <= parts.length; i++) entries.add(parts.slice(0, i).join('/'))
  }
  return {
    entries,
    topLevel: new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!)),
    names: new Set([...entries].map((e) => e.slice(e.lastIndexOf('/') + 1))),
  }
}

/** The folder a document's relative paths live in: its own (a package's README), the whole tree for docs/ and the root. */
const baseOf = (doc: string) => (doc.includes('/') && !doc.startsWith('docs/') ? dirname(doc) : '')

/** A path pattern as a regular expression: `*` and a `<placeholder>` stand for one segment's text, `{a,b}` for either. */
function patternOf(path: string, anchored: boolean): RegExp {
  const escaped = path.replace(/[.+^$()|[\]\\]/g, '\\$&')
  const source = escaped
    .replace(/<[^/>]+>|\*/g, '[^/]*')
    .replace(/\{([^}]*)\}/g, (_, alts: string) => `(${alts.split(',').join('|')})`)
  return new RegExp(`${anchored ? '^' : '(^|/)'}${source}$`)
}

/** Whether an entry of `tree` under `base` ends with `path` (whole segments; a pattern matches at least one). */
function found(tree: Tree, base: string, path: string): boolean {
  if (!/[*<{]/.test(path)) {
    if (base === '' && tree.entries.has(path)) return true
    const full = base ? `${base}/${path}` : path
    if (tree.entries.has(full)) return true
  }
  const re = patternOf(path, false)
  for (const e of tree.entries) if ((base === '' || e.startsWith(`${base}/`)) && re.test(e)) return true
  return false
}

/** Whether `path` exists from the root, or from the document's folder (`scripts/x.ts` in apps/console's README). */
function atRoot(tree: Tree, doc: string, path: string): boolean {
  const beside = dirname(doc) === '.' ? path : `${dirname(doc)}/${path}`
  if (!/[*<{]/.test(path)) return tree.entries.has(path) || tree.entries.has(beside)
  const [fromRoot, fromDoc] = [patternOf(path, true), patternOf(beside, true)]
  for (const e of tree.entries) if (fromRoot.test(e) || fromDoc.test(e)) return true
  return false
}

/** One path-like word: what it names, or null (`text/csv`, an HTTP path, a URL, a package name). */
function checkWord(word: string, doc: string, tree: Tree, relativeAllowed: boolean, link: boolean): Checked | null {
  const t = word
    .replace(/[.,;:]$/, '')
    .replace(/#[\w-]*$/, '')
    .replace(/:\d+(-\d+)?$/, '')
  // a bare source file's name (`ticket.commands.ts`): some file of the repository has it
  if (relativeAllowed && /^[\w-][\w.-]*\.(ts|tsx|md|sh|ya?ml|css)$/.test(t))
    return { path: t, found: tree.names.has(t) }
  if (!t.includes('/') || /:\/\/|^\/|^[\w-]+:|[…$@=|,;()'"]|\[|\]|\.\.\.|%/.test(t) || GENERATED.test(t)) return null
  // a link, or a span climbing out of the document's folder (`../../docs/screenshots/x.png`), as Markdown reads it
  if (t.startsWith('../') || (link && t.startsWith('./'))) {
    const path = normalize(join(dirname(doc), t)).replace(/\/$/, '')
    return path.startsWith('..') ? null : { path, found: atRoot(tree, '.', path) }
  }
  const bare = t.replace(/^\.\//, '').replace(/\/$/, '')
  const first = bare.split('/')[0]!
  // in a command, a word is a path only with a file's extension (`kubectl exec deploy/statistics` names a Deployment)
  if (tree.topLevel.has(first) && (relativeAllowed || /\.[a-z]{1,5}$/i.test(bare)))
    return { path: bare, found: atRoot(tree, doc, bare) }
  if (!relativeAllowed || tree.topLevel.has(first) || !bare.includes('/') || first.includes('<')) return null
  const base = baseOf(doc)
  if (!/(\.[a-z]{1,5}|\/)$/i.test(t) && !found(tree, base, first)) return null
  return { path: bare, found: found(tree, base, bare) }
}

export interface Checked {
  path: string
  found: boolean
}

/**
 * The repository paths a mention names, each with whether it exists. A path has a slash and no URL scheme, leading
 * `/` (an HTTP path: `/api/tickets`), `@` (a package name), `…`, `$VAR`, `=` or `[x]`, and does not lie in what a
 * build or a run makes (GENERATED); a trailing `#anchor` or `:line` is dropped; `*`, `<name>` and `{a,b}` are
 * patterns that must match something. A path starting with a top-level folder (`services/tickets/src/build.ts`,
 * also a file inside a command: `node scripts/engines.ts`) must exist from the root (or from the document's folder); a
 * link, or a span starting `../`, from the document's folder (a span's `./x` is the package's own, as in
 * `exports`); any other (`src/build.ts`, `service/run.ts`), if it ends in a file extension or `/` or starts with a
 * folder of the document's package, must be the end of a path in that package (the whole repository for docs/ and
 * the root README). A bare source file's name (`build.ts`; not `.json`, `.html` or `.js`, which are also
 * documents the services serve) must be the name of some file. Anything else (`text/csv`, `demo/main`) names no file.
 */
export function checkMention({ text, kind }: Mention, doc: string, tree: Tree): Checked[] {
  const words = text.trim().split(/\s+/)
  // a span with spaces is a command or a sentence: only its words that start at the root are taken for paths
  const relativeAllowed = words.length === 1
  return words.flatMap((w) => checkWord(w, doc, tree, relativeAllowed, kind === 'link') ?? [])
}

/**
 * Words that cite a document outside the repository: the earlier implementation's reference (`reference §2.6`,
 * its file name), the API notes, the shared folder, and numbered parts of the outside spec (`spec §3`, `spec
 * scope rule 2`). A reader of the repository cannot open them; say what they mean instead. Plain words about the
 * earlier system ("the earlier system's score") are fine: they describe, they cite nothing.
 */
export const OUTSIDE_CITATIONS: readonly RegExp[] = [
  /\breference §/,
  /API-NOTES/,
  /earlier-implementation/,
  /\/work\/shared/,
  /\.\.\/shared\//,
  /\bspec §/,
  /\bspec (scope )?rules? \d/,
]

/** The text files whose words the citation check reads: code, styles, Markdown, config and scripts. */
export const CITABLE = /\.(ts|tsx|js|mjs|cjs|css|html|md|json|ya?ml|sh|sql|toml)$/

/** Lines of `text` that cite an outside document, with their number. */
export function outsideCitations(text: string): Mention[] {
  const out: Mention[] = []
  text.split('\n').forEach((line, i) => {
    if (OUTSIDE_CITATIONS.some((re) => re.test(line))) out.push({ text: line.trim(), line: i + 1 })
  })
  return out
}

export const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8')
