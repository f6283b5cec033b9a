import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { findSecret, resolveSecret } from '../src/secrets.ts'

t.test('a missing secret is generated once, stored 0600 under DATA_DIR, and read back on the next start', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-secrets-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = resolveSecret({}, 'JWT_SECRET', dir)
  t.equal(first.source, 'generated')
  t.ok(first.value.length >= 32, 'long enough')
  t.equal(statSync(first.path!).mode & 0o777, 0o600)
  const second = resolveSecret({}, 'JWT_SECRET', dir)
  t.equal(second.source, 'stored')
  t.equal(second.value, first.value, 'same secret after a restart')
  t.equal(findSecret({}, 'JWT_SECRET', dir), first.value)
  t.equal(findSecret({}, 'INTERNAL_SECRET', dir), undefined, 'find never creates')
})

t.test('NAME_FILE wins over NAME, NAME over the stored one; nothing is written then', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-secrets-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'mounted')
  writeFileSync(file, 'from-file-secret\n')
  t.same(resolveSecret({ JWT_SECRET: 'direct', JWT_SECRET_FILE: file }, 'JWT_SECRET', dir), {
    value: 'from-file-secret',
    source: 'file',
    path: file,
  })
  t.same(resolveSecret({ JWT_SECRET: 'direct' }, 'JWT_SECRET', dir), { value: 'direct', source: 'env' })
  t.throws(() => readFileSync(join(dir, '.secrets', 'jwt_secret')), 'no secret stored when one was given')
})
