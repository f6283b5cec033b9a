import { createSecretBox, REDACTED } from '@switchboard/platform'
import t from 'tap'
import { checkAppUrl, slugFrom } from '../../src/domain/integration-fields.ts'
import { configProblem, isSecretSetting, schemaProblem } from '../../src/domain/integration-schema.ts'
import { resealStale, settleSettings, shownConfig } from '../../src/domain/integration-settings.ts'
import type { ConfigSchema } from '../../src/schemas/integration.schemas.ts'

t.test('integration URLs: https only, http for loopback in development, no credentials', async (t) => {
  const ok = (raw: string, dev = false) => checkAppUrl(raw, dev)
  t.same(ok('https://crm.example/app?x=1'), { url: 'https://crm.example/app?x=1' })
  t.same(ok('  https://CRM.example  '), { url: 'https://crm.example/' }, 'normalised: what was checked is stored')
  for (const bad of [
    'javascript:alert(1)',
    ' java\tscript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'ftp://files.example/',
    'http://crm.example/',
    '//crm.example/app',
    '/relative',
    'not a url',
  ]) {
    t.ok('refused' in ok(bad), `refused: ${bad}`)
    t.ok('refused' in ok(bad, true), `refused in development too: ${bad}`)
  }
  t.match(ok('https://user:pass@crm.example/'), { refused: /credentials/ })
  t.match(ok('https://:pass@crm.example/'), { refused: /credentials/ })
  for (const loop of ['http://localhost:3000/app', 'http://127.0.0.1/', 'http://[::1]:8080/', 'http://2130706433/']) {
    t.ok('url' in ok(loop, true), `development: ${loop}`)
    t.ok('refused' in ok(loop, false), `not outside development: ${loop}`)
  }
  t.ok('refused' in ok('http://localhost.evil.example/', true), 'a name that only starts like localhost')
})

t.test('slug of a name', async (t) => {
  t.equal(slugFrom('Acme CRM (EU)'), 'acme-crm-eu')
  t.equal(slugFrom('  Café  Bar  '), 'cafe-bar')
  t.equal(slugFrom('!!!'), '')
  t.equal(slugFrom('客服'), '')
  t.equal(slugFrom(`${'a'.repeat(63)} b`), 'a'.repeat(63), 'at most 64, no trailing hyphen')
})

const schema: ConfigSchema = {
  type: 'object',
  properties: {
    region: { type: 'string', enum: ['eu', 'us'] },
    timeout: { type: 'integer', minimum: 1, maximum: 60 },
    ratio: { type: 'number', maximum: 1 },
    verbose: { type: 'boolean' },
    endpoint: { type: 'string', format: 'uri' },
    contact: { type: 'string', format: 'email' },
    client_key: { type: 'string', 'x-secret': true, minLength: 8 },
    signing: { type: 'string', format: 'password' },
    api_token: { type: 'string' },
  },
  required: ['region'],
}

t.test('what is secret', async (t) => {
  t.ok(isSecretSetting('client_key', schema), 'x-secret')
  t.ok(isSecretSetting('signing', schema), 'format password')
  t.ok(isSecretSetting('api_token', schema), 'named like a secret, declared')
  t.ok(isSecretSetting('partnerApiKey', {}), 'named like a secret, undeclared')
  t.notOk(isSecretSetting('region', schema))
  t.notOk(isSecretSetting('client_id', schema))
})

t.test('config_schema: rules that cannot hold are refused', async (t) => {
  t.equal(schemaProblem(schema), undefined)
  t.equal(schemaProblem({}), undefined)
  const cases: Array<[ConfigSchema, RegExp]> = [
    [{ properties: { a: { type: 'string' } }, required: ['b'] }, /names b/],
    [{ properties: { a: { type: 'integer', maxLength: 3 } } }, /strings only/],
    [{ properties: { a: { type: 'string', minimum: 3 } } }, /numbers only/],
    [{ properties: { a: { type: 'string', minLength: 5, maxLength: 2 } } }, /lower bound/],
    [{ properties: { a: { type: 'number', minimum: 5, maximum: 2 } } }, /lower bound/],
    [{ properties: { a: { type: 'integer', 'x-secret': true } } }, /must be of type string/],
    [{ properties: { password: { type: 'number' } } }, /must be of type string/],
    [{ properties: { a: { type: 'string', format: 'password', enum: ['x'] } } }, /no enum/],
    [{ properties: { a: { type: 'boolean', enum: ['x'] } } }, /booleans/],
    [{ properties: { a: { type: 'integer', enum: [1, 'two'] } } }, /valid integer/],
    [{ properties: { a: { type: 'string', maxLength: 2, enum: ['abc'] } } }, /valid string/],
  ]
  for (const [s, message] of cases) t.match(schemaProblem(s), { message }, JSON.stringify(s))
})

t.test('settings against the schema: the first problem names the setting, never the value', async (t) => {
  const good = { region: 'eu', timeout: 30, verbose: true, endpoint: 'https://x.example', client_key: 'k-12345678' }
  t.equal(configProblem(schema, good), undefined)
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{}, 'config.region', /required/],
    [{ region: 'mars' }, 'config.region', /one of eu, us/],
    [{ region: 'eu', timeout: 0 }, 'config.timeout', /at least 1/],
    [{ region: 'eu', timeout: 1.5 }, 'config.timeout', /integer/],
    [{ region: 'eu', timeout: '5' }, 'config.timeout', /must be a integer/],
    [{ region: 'eu', ratio: 2 }, 'config.ratio', /at most 1/],
    [{ region: 'eu', verbose: 'yes' }, 'config.verbose', /boolean/],
    [{ region: 'eu', endpoint: 'javascript:alert(1)' }, 'config.endpoint', /http\(s\) URL/],
    [{ region: 'eu', contact: 'nobody' }, 'config.contact', /email/],
    [{ region: 'eu', client_key: 'tiny' }, 'config.client_key', /at least 8/],
    [{ region: 'eu', extra: 1 }, 'config.extra', /not declared/],
    [{ region: 'eu', endpoint: 'x'.repeat(5000) }, 'config.endpoint', /at most 4096/],
  ]
  for (const [config, path, message] of cases) {
    const problem = configProblem(schema, config)
    t.match(problem, { path, message }, JSON.stringify(config).slice(0, 80))
  }
  t.notMatch(configProblem(schema, { region: 'eu', client_key: 'tiny' })?.message, /tiny/, 'the value is not echoed')

  const open: ConfigSchema = { additionalProperties: true }
  t.equal(configProblem(open, { anything: 'x', n: 1, b: false }), undefined, 'undeclared scalars when allowed')
  t.match(configProblem(open, { nested: { a: 1 } }), {
    path: 'config.nested',
    message: /string, a number or a boolean/,
  })
  t.match(configProblem(open, { api_key: 5 }), { path: 'config.api_key', message: /a secret/ })
})

t.test('settings stored: secrets sealed apart, kept by "[REDACTED]", never revealed by a schema change', async (t) => {
  const box = createSecretBox('k'.repeat(32))
  const first = settleSettings(box, schema, { config: {}, secrets: {} }, { region: 'eu', client_key: 'k-12345678' })
  if (!('stored' in first)) throw new Error('settled')
  t.same(first.stored.config, { region: 'eu' })
  t.match(first.stored.secrets, { client_key: /^v1\./ })
  t.notOk(JSON.stringify(first.stored).includes('k-12345678'))
  t.same(shownConfig(first.stored), { region: 'eu', client_key: REDACTED })

  // echoed: kept as sealed, opened for the check only
  const echoed = settleSettings(box, schema, first.stored, shownConfig(first.stored))
  if (!('stored' in echoed)) throw new Error('settled')
  t.equal(echoed.stored.secrets.client_key, first.stored.secrets.client_key, 'the same sealed value')
  t.equal(echoed.plain.client_key, 'k-12345678')

  // a schema that no longer marks it: a kept secret stays sealed; a new plain value is plain
  const plainSchema: ConfigSchema = { properties: { region: { type: 'string' }, client_key: { type: 'string' } } }
  const unmarked = settleSettings(box, plainSchema, first.stored, shownConfig(first.stored))
  if (!('stored' in unmarked)) throw new Error('settled')
  t.match(unmarked.stored.secrets, { client_key: /^v1\./ }, 'not revealed')
  const replaced = settleSettings(box, plainSchema, first.stored, { region: 'eu', client_key: 'public-id' })
  if (!('stored' in replaced)) throw new Error('settled')
  t.same(replaced.stored, { config: { region: 'eu', client_key: 'public-id' }, secrets: {} })

  t.same(settleSettings(box, schema, { config: {}, secrets: {} }, { region: 'eu', client_key: REDACTED }), {
    notStored: 'client_key',
  })

  // a rotation: sealed under the old key, read with it as a previous one, resealed under the new one
  const rotated = createSecretBox('n'.repeat(32), ['k'.repeat(32)])
  const again = settleSettings(rotated, schema, first.stored, shownConfig(first.stored))
  if (!('stored' in again)) throw new Error('settled')
  t.notOk(rotated.stale(again.stored.secrets.client_key as string), 'resealed under the current key')
  t.notOk(rotated.stale(resealStale(rotated, first.stored).secrets.client_key as string), 'resealStale too')
  const lost = createSecretBox('z'.repeat(32))
  t.same(settleSettings(lost, schema, first.stored, shownConfig(first.stored)), { unreadable: 'client_key' })
  t.same(resealStale(lost, first.stored), first.stored, 'an unreadable secret is left as it is')
})
