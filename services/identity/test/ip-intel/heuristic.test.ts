import t from 'tap'
import { classifyIp, parseClientIp } from '../../src/ip-intel/heuristic.ts'

t.test('network and location labels by range', async (t) => {
  const cases: [string, string, string][] = [
    ['127.0.0.1', 'loopback', 'loopback'],
    ['127.8.9.10', 'loopback', 'loopback'],
    ['::1', 'loopback', 'loopback'],
    ['10.1.2.3', 'private', 'private'],
    ['172.16.0.1', 'private', 'private'],
    ['172.31.255.254', 'private', 'private'],
    ['192.168.1.20', 'private', 'private'],
    ['fd12:3456::1', 'private', 'private'],
    ['fc00::1', 'private', 'private'],
    ['100.64.0.1', 'private', 'shared_address_space'],
    ['100.127.255.254', 'private', 'shared_address_space'],
    ['192.0.2.10', 'public', 'documentation'],
    ['198.51.100.7', 'public', 'documentation'],
    ['203.0.113.99', 'public', 'documentation'],
    ['2001:db8::42', 'public', 'documentation'],
    ['8.8.8.8', 'public', 'public_unknown'],
    ['172.32.0.1', 'public', 'public_unknown'],
    ['100.128.0.1', 'public', 'public_unknown'],
    ['2606:4700::1111', 'public', 'public_unknown'],
  ]
  for (const [ip, network, location] of cases) {
    t.same(classifyIp(ip), { network_label: network, location_label: location }, ip)
  }
})

t.test('IPv4-mapped IPv6 is classified as the IPv4 address it carries', async (t) => {
  t.same(classifyIp('::ffff:127.0.0.1'), { network_label: 'loopback', location_label: 'loopback' })
  t.same(classifyIp('::ffff:10.0.0.5'), { network_label: 'private', location_label: 'private' })
  t.same(classifyIp('::ffff:100.64.1.1'), { network_label: 'private', location_label: 'shared_address_space' })
  t.same(classifyIp('::ffff:203.0.113.5'), { network_label: 'public', location_label: 'documentation' })
  t.same(classifyIp('::ffff:8.8.4.4'), { network_label: 'public', location_label: 'public_unknown' })
})

t.test('garbage and empty addresses are unknown', async (t) => {
  for (const ip of ['', '   ', 'not-an-ip', '999.1.1.1', '127.1', '0x7f.0.0.1', '1.2.3.4.5', '::g']) {
    t.same(classifyIp(ip), { network_label: 'unknown', location_label: 'unknown' }, JSON.stringify(ip))
  }
  t.same(classifyIp(undefined), { network_label: 'unknown', location_label: 'unknown' })
  t.same(classifyIp(null), { network_label: 'unknown', location_label: 'unknown' })
})

t.test('brackets and surrounding space are tolerated', async (t) => {
  t.equal(parseClientIp('[::1]')?.kind(), 'ipv6')
  t.same(classifyIp(' 192.168.0.1 '), { network_label: 'private', location_label: 'private' })
})
