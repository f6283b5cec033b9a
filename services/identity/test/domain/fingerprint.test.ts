import { createHash } from 'node:crypto'
import t from 'tap'
import { clientIp, deviceFingerprint, parseCidrs } from '../../src/domain/fingerprint.ts'

t.test('device fingerprint', async (t) => {
  t.equal(deviceFingerprint('  dev-1 ', 'ua', '1.2.3.4'), 'dev-1')
  t.equal(deviceFingerprint('x'.repeat(200), 'ua', '1.2.3.4'), 'x'.repeat(128))
  const expected = createHash('sha256').update('ua\n1.2.3.4').digest('hex').slice(0, 32)
  t.equal(deviceFingerprint(undefined, 'ua', '1.2.3.4'), expected)
  t.equal(deviceFingerprint('   ', 'ua', '1.2.3.4'), expected, 'blank X-Device-ID falls back to the hash')
  t.not(deviceFingerprint(undefined, 'ua', '1.2.3.5'), expected)
})

t.test('client address: X-Forwarded-For only from a trusted peer', async (t) => {
  const loopback = parseCidrs(['127.0.0.0/8', '::1/128'])
  t.equal(clientIp('127.0.0.1', '203.0.113.7', loopback), '203.0.113.7')
  t.equal(clientIp('::ffff:127.0.0.1', '203.0.113.7', loopback), '203.0.113.7', 'v4-mapped peer')
  t.equal(clientIp('198.51.100.1', '203.0.113.7', loopback), '198.51.100.1', 'untrusted peer: header ignored')
  t.equal(clientIp('127.0.0.1', '6.6.6.6, 203.0.113.7', loopback), '203.0.113.7', 'client-forged hop ignored')
  t.equal(clientIp('127.0.0.1', '203.0.113.7, 127.0.0.1', loopback), '203.0.113.7', 'trusted hops skipped')
  t.equal(clientIp('127.0.0.1', 'garbage', loopback), '127.0.0.1')
  t.equal(clientIp('127.0.0.1', undefined, loopback), '127.0.0.1')
  t.equal(clientIp('10.0.0.5', '203.0.113.7', parseCidrs(['10.0.0.0/8'])), '203.0.113.7', 'cluster network')
})
