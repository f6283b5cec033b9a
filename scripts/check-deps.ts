// `npm test` step: every workspace package declares what it imports and imports what it declares. An undeclared
// import works by accident (pnpm hoisting, a neighbour's dependency) until a production install drops it; an unused
// one is weight in every image. Sources (src/) need `dependencies`; tests and fixtures may use `devDependencies`.
// Then the import rules between a service's floors (scripts/layers.ts, docs/conventions.md §18).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'
import { layerProblems } from './layers.ts'

const root = new URL('..', import.meta.url).pathname

/** Declared but never imported, on purpose; each with its reason. */
const IMPLICIT: Record<string, string> = {
  '@types/node': 'types of the Node API',
  '@types/pg': 'types of pg',
  '@types/ws': 'types of ws',
  '@types/autocannon': 'types of autocannon',
  '@types/react': 'types of react',
  '@types/react-dom': 'types of react-dom',
  'axe-core': 'its browser bundle is injected into pages by path (test-e2e/browser/harness.ts)',
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm

function files(dir: string): string[] {
  let out: string[] = []
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out = out.concat(files(path))
    else if (/\.(ts|mts|tsx)$/.test(name)) out.push(path)
  }
  return out
}

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#')) return undefined
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

function importsOf(paths: string[]): Map<string, string> {
  const used = new Map<string, string>()
  for (const path of paths) {
    for (const m of readFileSync(path, 'utf8').matchAll(IMPORT)) {
      const pkg = packageOf(m[1] ?? m[2] ?? m[3] ?? '')
      if (pkg && !used.has(pkg)) used.set(pkg, relative(root, path))
    }
  }
  return used
}

const workspaces = ['apps', 'packages', 'services']
  .flatMap((d) => readdirSync(join(root, d)).map((n) => join(root, d, n)))
  .concat([join(root, 'gateway'), join(root, 'test-e2e')])
  .filter((dir) => {
    try {
      return statSync(join(dir, 'package.json')).isFile()
    } catch {
      return false
    }
  })

// Test-support packages: all of their code is test code.
const TEST_ONLY = new Set(['@switchboard/testing', '@switchboard/e2e'])
// The root's devDependencies (tap, typescript, biome, types) are the workspace's tools, available to every test.
const rootDev = new Set(Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies ?? {}))

const problems: string[] = []
for (const dir of workspaces) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const deps = new Set(Object.keys(manifest.dependencies ?? {}))
  const dev = new Set(Object.keys(manifest.devDependencies ?? {}))
  const all = files(dir)
  const name = manifest.name as string
  // src/ ships; the rest (test/, fixtures) does not
  const shipped = TEST_ONLY.has(name) ? [] : all.filter((f) => f.startsWith(join(dir, 'src')))
  const other = all.filter((f) => !shipped.includes(f))
  const srcUses = importsOf(shipped)
  const testUses = importsOf(other)
  for (const [pkg, where] of srcUses) {
    if (pkg === name) continue
    if (!deps.has(pkg)) problems.push(`${name}: imports ${pkg} in ${where} but does not list it in dependencies`)
  }
  for (const [pkg, where] of testUses) {
    if (pkg === name) continue
    if (!deps.has(pkg) && !dev.has(pkg) && !rootDev.has(pkg))
      problems.push(`${name}: imports ${pkg} in ${where} but does not declare it`)
  }
  for (const pkg of deps) {
    if (IMPLICIT[pkg]) continue
    if (!srcUses.has(pkg) && !testUses.has(pkg)) problems.push(`${name}: declares ${pkg} but never imports it`)
    else if (!srcUses.has(pkg) && shipped.length > 0)
      problems.push(`${name}: ${pkg} is only used by tests; move it to devDependencies`)
  }
  for (const pkg of dev) {
    if (IMPLICIT[pkg]) continue
    if (!testUses.has(pkg) && !srcUses.has(pkg)) problems.push(`${name}: declares ${pkg} (dev) but never imports it`)
  }
}

const layers = layerProblems(root)
problems.push(...layers)

if (problems.length > 0) {
  for (const p of problems) console.error(`  ${p}`)
  console.error(`${problems.length} dependency problem(s) (import rules: docs/conventions.md §18)`)
  process.exit(1)
}
console.log(
  `dependencies: ${workspaces.length} packages declare exactly what they import; services keep the layer rules`,
)
