// The layer check (scripts/layers.ts, run by scripts/check-deps.ts in `npm test`) on small fixture trees: each rule
// of docs/conventions.md §18 fails a tree that breaks it and passes one that keeps it; and the repository keeps them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from '@switchboard/cli'
import t, { type Test } from 'tap'
import { layerProblems } from '../scripts/layers.ts'

/** A repository root with the given files (path → source) under it. */
function tree(t: Test, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layers-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), source)
  }
  return root
}

const REPO = 'export function findTicket(db: unknown) { return db }\nexport interface TicketRow { id: string }\n'
const base = {
  'services/tickets/src/db/tickets.repository.ts': REPO,
  'services/tickets/src/db/migrations/index.ts': "export * as m1 from './20260101_0001_tickets.ts'\n",
  'services/tickets/src/db/migrations/20260101_0001_tickets.ts':
    "import { dialectOf } from '@switchboard/platform'\nimport { type Kysely, sql } from 'kysely'\n",
  'services/tickets/src/build.ts': "import { migrations } from './db/migrations/index.ts'\n",
  'services/tickets/src/domain/status.ts':
    "import { randomUUID } from 'node:crypto'\nimport type { T } from './t.ts'\n",
  'services/audit/src/domain/x.ts': '',
}

t.test('a tree that keeps the rules passes', async (t) => {
  t.same(layerProblems(tree(t, base), {}), [])
})

t.test('a domain file that imports a repository fails, type-only or not', async (t) => {
  const root = tree(t, {
    ...base,
    'services/tickets/src/domain/rules.ts': "import { findTicket } from '../db/tickets.repository.ts'\n",
    'services/tickets/src/domain/view.ts': "import type { TicketRow } from '../db/tickets.repository.ts'\n",
  })
  t.same(layerProblems(root, {}), [
    'services/tickets/src/domain/rules.ts: domain/ imports db/ (../db/tickets.repository.ts)',
    'services/tickets/src/domain/view.ts: domain/ imports db/ (../db/tickets.repository.ts)',
  ])
})

t.test('domain/ imports no I/O module, no command or query, and only types from an adapter', async (t) => {
  const root = tree(t, {
    ...base,
    'services/tickets/src/domain/a.ts': "import { readFileSync } from 'node:fs'\nimport pg from 'pg'\n",
    'services/tickets/src/domain/b.ts': "export { x } from '../commands/x.ts'\nimport { q } from '../queries/q.ts'\n",
    'services/tickets/src/domain/c.ts':
      "import type { Port } from '../ip-intel/port.ts'\nimport { type A, type B } from '../llm/port.ts'\n",
    'services/tickets/src/domain/d.ts':
      "import { lookup } from '../ip-intel/index.ts'\nimport { c } from '../adapters/s3/c.ts'\n",
  })
  t.same(layerProblems(root, {}), [
    'services/tickets/src/domain/a.ts: domain/ imports an I/O module (node:fs)',
    'services/tickets/src/domain/a.ts: domain/ imports an I/O module (pg)',
    'services/tickets/src/domain/b.ts: domain/ imports commands/ (../commands/x.ts)',
    'services/tickets/src/domain/b.ts: domain/ imports queries/ (../queries/q.ts)',
    'services/tickets/src/domain/d.ts: domain/ imports a value from the adapter ip-intel/ (../ip-intel/index.ts); types only',
    'services/tickets/src/domain/d.ts: domain/ imports adapters/ (../adapters/s3/c.ts)',
  ])
})

t.test(
  'a migration imports nothing from runtime code; runtime code reaches migrations only through index.ts',
  async (t) => {
    const root = tree(t, {
      ...base,
      'services/tickets/src/db/migrations/20260102_0002_counts.ts':
        "import { findTicket } from '../tickets.repository.ts'\n",
      'services/tickets/src/db/check.ts': "import { SQL } from './migrations/20260101_0001_tickets.ts'\n",
    })
    t.same(layerProblems(root, {}), [
      'services/tickets/src/db/check.ts: runtime code imports a migration file (./migrations/20260101_0001_tickets.ts); only db/migrations/index.ts',
      'services/tickets/src/db/migrations/20260102_0002_counts.ts: a migration imports ../tickets.repository.ts (only kysely, @switchboard/platform, sibling migrations)',
    ])
  },
)

t.test('no service imports another', async (t) => {
  const root = tree(t, {
    ...base,
    'services/tickets/src/commands/a.ts':
      "import { x } from '@switchboard/audit'\nimport { y } from '../../../audit/src/domain/x.ts'\n",
  })
  t.same(layerProblems(root, {}), [
    'services/tickets/src/commands/a.ts: imports another service (@switchboard/audit)',
    'services/tickets/src/commands/a.ts: imports another service (../../../audit/src/domain/x.ts)',
  ])
})

t.test('a known exception silences its file; one that breaks no rule any more is reported', async (t) => {
  const root = tree(t, {
    ...base,
    'services/tickets/src/domain/view.ts': "import type { TicketRow } from '../db/tickets.repository.ts'\n",
  })
  t.same(layerProblems(root, { 'services/tickets/src/domain/view.ts': 'row mapper, moving to db/' }), [])
  t.same(
    layerProblems(root, {
      'services/tickets/src/domain/view.ts': 'why',
      'services/tickets/src/domain/status.ts': 'why',
    }),
    ['services/tickets/src/domain/status.ts: listed in KNOWN (scripts/layers.ts) but breaks no rule now; remove it'],
  )
})

t.test('the repository keeps the rules (its known exceptions listed in scripts/layers.ts)', async (t) => {
  t.same(layerProblems(REPO_ROOT), [])
})
