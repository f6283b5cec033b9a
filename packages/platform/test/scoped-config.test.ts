import t from 'tap'
import { isPlainObject, overlay, scopeLayers } from '../src/index.ts'

interface Conf {
  llm: { model: string; temperature: number; stop: string[]; limits: { tokens: number; rpm: number } }
  portal: { title: string; enabled: boolean }
}

const base: Conf = {
  llm: { model: 'small', temperature: 0.2, stop: ['a', 'b'], limits: { tokens: 1000, rpm: 60 } },
  portal: { title: 'Help', enabled: true },
}

t.test('overlay: later layers win, only where they hold a value', async (t) => {
  const tenant = { llm: { model: 'large', limits: { tokens: 4000 } } }
  const workspace = { llm: { limits: { tokens: 2000 } }, portal: { enabled: false } }
  const got = overlay(base, tenant, workspace)
  t.same(got, {
    llm: { model: 'large', temperature: 0.2, stop: ['a', 'b'], limits: { tokens: 2000, rpm: 60 } },
    portal: { title: 'Help', enabled: false },
  })
  t.same(overlay(base), base, 'no layers: a copy of base')
  t.not(overlay(base).llm, base.llm, 'the copy shares no merged object')
})

t.test('overlay: undefined and null are skipped, falsy values are values', async (t) => {
  const got = overlay(base, {
    llm: { model: undefined, temperature: 0, limits: null },
    portal: { title: '', enabled: null },
  })
  t.equal(got.llm.model, 'small')
  t.equal(got.llm.temperature, 0)
  t.same(got.llm.limits, base.llm.limits)
  t.equal(got.portal.title, '')
  t.equal(got.portal.enabled, true)
  t.same(overlay(base, undefined, null, { portal: undefined }), base, 'absent layers change nothing')
  t.same(overlay(base, [1, 2] as never, 'x' as never), base, 'a layer that is not an object changes nothing')
})

t.test('overlay: arrays replace whole, and are copies', async (t) => {
  const stop = ['z']
  const got = overlay(base, { llm: { stop } })
  t.same(got.llm.stop, ['z'])
  t.not(got.llm.stop, stop)
  t.same(overlay(base, { llm: { stop: [] } }).llm.stop, [], 'an empty array is a value')
})

t.test('overlay: inputs are left alone; keys absent from base are added', async (t) => {
  const before = JSON.stringify(base)
  const layer = { llm: { limits: { tokens: 1 } }, extra: { on: true } } as never
  const got = overlay(base, layer) as Conf & { extra?: { on: boolean } }
  t.equal(JSON.stringify(base), before)
  t.same(layer, { llm: { limits: { tokens: 1 } }, extra: { on: true } })
  t.same(got.extra, { on: true })
  got.llm.limits.tokens = 99
  t.equal(base.llm.limits.tokens, 1000)
})

t.test('overlay: a layer from JSON cannot reach a prototype', async (t) => {
  const hostile = JSON.parse('{"__proto__": {"polluted": true}, "portal": {"constructor": {"x": 1}, "title": "T"}}')
  const got = overlay(base, hostile) as Conf & Record<string, unknown>
  t.equal(({} as Record<string, unknown>).polluted, undefined)
  t.equal(got.polluted, undefined)
  t.equal(got.portal.title, 'T')
  t.equal(Object.getPrototypeOf(got), Object.prototype)
})

t.test('scopeLayers: [tenant, workspace], absent as undefined; the workspace wins', async (t) => {
  t.same(scopeLayers({ tenant: { a: 1 }, workspace: { a: 2 } }), [{ a: 1 }, { a: 2 }])
  t.same(scopeLayers({ workspace: { a: 2 } }), [undefined, { a: 2 }])
  t.same(scopeLayers({ tenant: null }), [undefined, undefined])
  t.same(scopeLayers(undefined), [undefined, undefined])
  const system = { a: 0, b: 0, c: 0 }
  const stored = { tenant: { a: 1, b: 1 }, workspace: { b: 2 } }
  t.same(overlay(system, ...scopeLayers(stored), { c: 3 }), { a: 1, b: 2, c: 3 }, 'runtime last of all')
})

t.test('isPlainObject', async (t) => {
  t.ok(isPlainObject({}))
  t.ok(isPlainObject(Object.create(null)))
  t.ok(isPlainObject(JSON.parse('{"a":1}')))
  for (const v of [null, undefined, [], new Date(), 'x', 1, new Map()]) t.notOk(isPlainObject(v))
})
