import t from 'tap'
import { embedAllowed, normalOrigin } from '../../src/domain/embed-origin.ts'

t.test('normalOrigin: an http(s) origin, lower-cased, default port dropped', async (t) => {
  t.equal(normalOrigin('https://Shop.Example:443'), 'https://shop.example')
  t.equal(normalOrigin('http://localhost:5173'), 'http://localhost:5173')
  t.equal(normalOrigin('https://shop.example/some/page?q=1'), 'https://shop.example')
  t.equal(normalOrigin('javascript:alert(1)'), undefined)
  t.equal(normalOrigin('null'), undefined, 'an opaque origin (sandboxed frame, file:) is no origin')
  t.equal(normalOrigin(''), undefined)
  t.equal(normalOrigin(undefined), undefined)
})

t.test('embedAllowed: an empty list admits anyone; a list only its own origins', async (t) => {
  t.ok(embedAllowed([], undefined), 'empty list, no origin: the development default')
  t.ok(embedAllowed([], 'https://anyone.example'))
  const list = ['https://shop.example', 'http://localhost:5173']
  t.ok(embedAllowed(list, 'https://shop.example'))
  t.ok(embedAllowed(list, 'https://SHOP.example:443'), 'the same origin written differently')
  t.notOk(embedAllowed(list, undefined), 'a list and no origin')
  t.notOk(embedAllowed(list, 'https://evil.example'))
  t.notOk(embedAllowed(list, 'http://shop.example'), 'the scheme counts')
  t.notOk(embedAllowed(list, 'https://shop.example:8443'), 'the port counts')
  t.notOk(embedAllowed(list, 'https://shop.example.evil.example'), 'no suffix games')
  t.notOk(embedAllowed(list, 'http://localhost:5174'))
})
