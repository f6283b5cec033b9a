// The import rules of a service's lower floors (docs/conventions.md §18), checked by `scripts/check-deps.ts` in
// `npm test` so the next service cannot drift: domain/ is pure, migrations are frozen, runtime code does not reach
// into single migration files, and no service imports another. Paths are read from the import specifiers, so a
// rule holds for type-only imports too: a domain rule that names a row type still depends on the table's shape.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** Folders of src/ that domain/ may not import from (anything under them, type or value). */
const NOT_FROM_DOMAIN = ['db', 'queries', 'commands', 'routes', 'consumers', 'workers', 'adapters']

/**
 * Clients of outside systems that predate `adapters/<name>/` (§18 names the move as the direction). domain/ may
 * import their types (a port is an interface) but no value: calling one is I/O.
 */
const LEGACY_ADAPTERS = ['llm', 'providers', 'outbound', 'ip-intel', 'blob', 'recording', 'webrtc']

/** Modules that do I/O (or reach a database or the network); none of them belongs in domain/. */
const IO_MODULES =
  /^(node:)?(fs|fs\/promises|net|tls|http|https|http2|dgram|dns|child_process|cluster|worker_threads)$|^(pg|ioredis|undici|kysely|better-sqlite3|nats|@nats-io\/.*|fastify|ws|@aws-sdk\/.*)$/

/** What a migration may import: the query builder, the platform's migration helpers, and its sibling migrations. */
const MIGRATION_MAY = /^(kysely|@switchboard\/platform)$|^\.\/[^/]+$/

/**
 * Files that break a rule today, each with why it is left and what ends it. A new entry needs a reason a reviewer
 * accepts; an entry that no longer matches anything is itself reported, so the list only shrinks.
 */
export const KNOWN: Record<string, string> = {}

const IMPORT =
  /(?:^|[\s;])(?:import|export)(\s+type)?\s([^'"`;]*?)from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm

/** `{ type A, type B as C }`: every name a type, so nothing runs. */
const ALL_TYPES = /^\s*\{\s*(?:type\s+\w+(?:\s+as\s+\w+)?\s*,?\s*)+\}\s*$/

interface Import {
  specifier: string
  typeOnly: boolean
}

function importsOf(source: string): Import[] {
  return [...source.matchAll(IMPORT)].map((m) => ({
    specifier: m[3] ?? m[4] ?? m[5] ?? '',
    typeOnly: m[1] !== undefined || ALL_TYPES.test(m[2] ?? ''),
  }))
}

function sources(dir: string): string[] {
  let out: string[] = []
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out = out.concat(sources(path))
    else if (/\.(ts|mts|tsx)$/.test(name)) out.push(path)
  }
  return out
}

/** The first folder under src/ a path lies in ('' for a file directly in src/). */
function floorOf(src: string, path: string): string {
  const rel = relative(src, path)
  return rel.includes(sep) ? rel.split(sep)[0]! : ''
}

/** Every broken rule under `root`'s services/, as "<file>: <what>", known ones left out. */
export function layerProblems(root: string, known: Record<string, string> = KNOWN): string[] {
  const problems: string[] = []
  const matched = new Set<string>()
  const servicesDir = join(root, 'services')
  const services = readdirSync(servicesDir).filter((n) => {
    try {
      return statSync(join(servicesDir, n, 'src')).isDirectory()
    } catch {
      return false
    }
  })
  for (const service of services) {
    const src = join(servicesDir, service, 'src')
    const migrations = join(src, 'db', 'migrations')
    for (const file of sources(src)) {
      const rel = relative(root, file).split(sep).join('/')
      const floor = floorOf(src, file)
      const inMigrations = file.startsWith(migrations + sep)
      const found: string[] = []
      for (const { specifier, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
        const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined
        const other = /^@switchboard\/(.+)$/.exec(specifier)?.[1]
        if ((other && other !== service && services.includes(other)) || target?.startsWith(servicesDir + sep)) {
          const into = target ? relative(servicesDir, target).split(sep)[0] : other
          if (into !== service) found.push(`imports another service (${specifier})`)
        }
        if (inMigrations) {
          if (!MIGRATION_MAY.test(specifier))
            found.push(`a migration imports ${specifier} (only kysely, @switchboard/platform, sibling migrations)`)
          continue
        }
        if (target?.startsWith(migrations + sep) && relative(migrations, target) !== 'index.ts')
          found.push(`runtime code imports a migration file (${specifier}); only db/migrations/index.ts`)
        if (floor !== 'domain') continue
        if (IO_MODULES.test(specifier)) found.push(`domain/ imports an I/O module (${specifier})`)
        if (!target?.startsWith(src + sep)) continue
        const into = floorOf(src, target)
        if (NOT_FROM_DOMAIN.includes(into)) found.push(`domain/ imports ${into}/ (${specifier})`)
        else if (LEGACY_ADAPTERS.includes(into) && !typeOnly)
          found.push(`domain/ imports a value from the adapter ${into}/ (${specifier}); types only`)
      }
      if (found.length === 0) continue
      if (known[rel] !== undefined) {
        matched.add(rel)
        continue
      }
      for (const f of found) problems.push(`${rel}: ${f}`)
    }
  }
  for (const rel of Object.keys(known)) {
    if (!matched.has(rel))
      problems.push(`${rel}: listed in KNOWN (scripts/layers.ts) but breaks no rule now; remove it`)
  }
  return problems
}
