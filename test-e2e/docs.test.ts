// Docs that can't rot: every repository path a README or docs/*.md names exists; no file cites a document the
// repository does not hold (the earlier implementation's reference, the API notes, the outside spec's numbered
// rules): it says what they mean instead; docs/architecture.md lists every event contract file. The rules for what
// counts as a path or a citation are in test-e2e/harness/docs-check.ts.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '@switchboard/cli'
import t from 'tap'
import {
  CITABLE,
  checkMention,
  docFiles,
  mentions,
  outsideCitations,
  read,
  treeOf,
  walk,
} from './harness/docs-check.ts'

const files = walk(REPO_ROOT)
const tree = treeOf(files)
const SELF = ['test-e2e/docs.test.ts', 'test-e2e/harness/docs-check.ts']

t.test('every path a README or docs/*.md names exists', async (t) => {
  const docs = docFiles(files)
  t.ok(docs.includes('README.md') && docs.includes('docs/architecture.md'), 'the root README and docs/ are read')
  t.ok(docs.length >= 15, `${docs.length} documents`)
  const missing: string[] = []
  let checked = 0
  for (const doc of docs) {
    for (const m of mentions(read(REPO_ROOT, doc))) {
      for (const c of checkMention(m, doc, tree)) {
        checked++
        if (!c.found) missing.push(`${doc}:${m.line} \`${m.text}\` (${c.path})`)
      }
    }
  }
  t.ok(checked > 500, `${checked} paths checked`)
  t.same(missing, [], 'named paths that do not exist')
})

t.test('the path rules: what is a path, what is not', async (t) => {
  const at = (text: string, doc = 'services/tickets/README.md', kind: 'code' | 'link' = 'code') =>
    checkMention({ text, line: 1, kind }, doc, tree)
  t.same(at('services/tickets/src/build.ts'), [{ path: 'services/tickets/src/build.ts', found: true }])
  t.same(at('services/tickets/src/gone.ts'), [{ path: 'services/tickets/src/gone.ts', found: false }], 'from the root')
  t.same(at('src/build.ts'), [{ path: 'src/build.ts', found: true }], "relative: the document's package")
  t.same(at('src/routes/nope.routes.ts'), [{ path: 'src/routes/nope.routes.ts', found: false }])
  t.same(at('services/*/test'), [{ path: 'services/*/test', found: true }], 'a pattern matches something')
  t.same(at('services/*/nothing-here'), [{ path: 'services/*/nothing-here', found: false }])
  t.same(at('../../docs/architecture.md', 'apps/console/README.md', 'link'), [
    { path: 'docs/architecture.md', found: true },
  ])
  t.same(at('bash scripts/toolchain.sh env node scripts/gone.ts'), [
    { path: 'scripts/toolchain.sh', found: true },
    { path: 'scripts/gone.ts', found: false },
  ])
  t.same(at('kubectl exec deploy/statistics -- node scripts/engines.ts'), [{ path: 'scripts/engines.ts', found: true }])
  t.same(at('ticket.commands.ts'), [{ path: 'ticket.commands.ts', found: true }], 'a bare file name')
  t.same(at('no-such-file.ts'), [{ path: 'no-such-file.ts', found: false }])
  for (const text of [
    '/api/tickets/:id',
    'https://example.com/a/b.ts',
    '@switchboard/platform',
    'text/csv',
    'tenant/workspace',
    'apps/console/dist',
    'data/.secrets/',
    'packages/contracts/src/events/….ts',
    'openapi.json',
  ]) {
    t.same(at(text), [], `${text}: no path`)
  }
})

t.test('no file cites a document outside the repository', async (t) => {
  const found: string[] = []
  for (const file of files) {
    if (!CITABLE.test(file) || SELF.includes(file)) continue
    for (const c of outsideCitations(read(REPO_ROOT, file))) found.push(`${file}:${c.line} ${c.text.slice(0, 120)}`)
  }
  t.same(found, [], 'citations of outside documents (say what they mean in the repository instead)')
  t.ok(outsideCitations('a rule (reference §2.6)').length === 1, 'the rule sees a reference citation')
  t.ok(outsideCitations('scoped (spec scope rule 2)').length === 1, "and the outside spec's numbered rules")
  t.same(outsideCitations("the earlier system's score"), [], 'words about the earlier system are no citation')
})

t.test('docs/architecture.md lists every event contract file', async (t) => {
  const dir = join(REPO_ROOT, 'packages/contracts/src/events')
  const contracts = readdirSync(dir).filter((f) => f.endsWith('.ts'))
  t.ok(contracts.length > 0, `${contracts.length} contract files`)
  const architecture = read(REPO_ROOT, 'docs/architecture.md')
  const unlisted = contracts.filter(
    (f) => !architecture.includes(`\`${f}\``) && !architecture.includes(`packages/contracts/src/events/${f}`),
  )
  t.same(unlisted, [], 'contract files docs/architecture.md does not name')
})
