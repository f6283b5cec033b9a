import { createHash } from 'node:crypto'
import { testPrincipal } from '@switchboard/testing'
import t from 'tap'
import {
  acceptableContent,
  contentDisposition,
  mayUseSession,
  mediaType,
  sanitizeFilename,
  servedFilename,
} from '../../src/domain/upload-rules.ts'

const ALLOWED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))))

t.test('mediaType drops parameters and case', async (t) => {
  t.equal(mediaType('Text/Plain; charset=UTF-8'), 'text/plain')
  t.equal(mediaType(undefined), '')
})

t.test('acceptableContent: allowed type, matching signature, honest extension', async (t) => {
  const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest')
  const webp = bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')
  t.ok(acceptableContent('image/png', 'a.png', png, ALLOWED))
  t.ok(acceptableContent('image/jpeg', 'a.JPG', bytes([0xff, 0xd8, 0xff, 0xdb]), ALLOWED))
  t.ok(acceptableContent('image/gif', 'a.gif', bytes('GIF89a...'), ALLOWED))
  t.ok(acceptableContent('image/webp', 'a.webp', webp, ALLOWED))
  t.ok(acceptableContent('application/pdf', 'a.pdf', bytes('%PDF-1.4'), ALLOWED))
  t.ok(acceptableContent('text/plain', 'notes', bytes('png'), ALLOWED), 'a name without a dot promises nothing')
  t.ok(acceptableContent('text/plain', 'a.txt', bytes('hi'), ALLOWED))
  t.notOk(acceptableContent('text/html', 'a.html', bytes('<b>'), ALLOWED), 'not allowed')
  t.notOk(acceptableContent('image/png', 'a.png', bytes([0x89, 0x50]), ALLOWED), 'too short for the signature')
  t.notOk(acceptableContent('image/webp', 'a.webp', bytes('RIFF', [1, 2, 3, 4], 'WAVE'), ALLOWED), 'RIFF, not WEBP')
  t.notOk(acceptableContent('text/plain', 'a.pdf', bytes('text'), ALLOWED), 'a .pdf that is not one')
  t.notOk(acceptableContent('image/png', 'a.jpg', png, ALLOWED), 'a .jpg holding a png')
  t.ok(acceptableContent('IMAGE/PNG'.toLowerCase(), 'a.png', png, ['IMAGE/PNG']), 'the allow-list is case-blind')
})

t.test('sanitizeFilename keeps a display name and nothing else', async (t) => {
  const cases: Array<[string | undefined, string]> = [
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.png', 'photo.png'],
    ['..', 'upload'],
    ['.hidden', 'hidden'],
    ['a\u0000b\u001fc\u007fd.txt', 'abcd.txt'],
    ['we"ird<>|?*:name.txt', 'weirdname.txt'],
    ['  spaced  .txt ', 'spaced  .txt'],
    ['', 'upload'],
    [undefined, 'upload'],
    ['Ünïcödé 文件.txt', 'Ünïcödé 文件.txt'],
  ]
  for (const [raw, want] of cases) t.equal(sanitizeFilename(raw), want, JSON.stringify(raw))
  const long = sanitizeFilename(`${'😀'.repeat(300)}.png`)
  t.equal([...long].length, 200, 'at most 200 characters')
  t.ok(long.endsWith('😀.png'), 'the extension kept, no emoji cut in half')
})

t.test('contentDisposition: inline only for raster images, both filename forms', async (t) => {
  t.equal(contentDisposition('image/png', 'a b.png'), `inline; filename="a b.png"; filename*=UTF-8''a%20b.png`)
  t.equal(
    contentDisposition('image/svg+xml', "it's.svg"),
    `attachment; filename="it's.svg"; filename*=UTF-8''it%27s.svg`,
  )
  t.equal(
    contentDisposition('text/plain', '100%; naïve.txt'),
    `attachment; filename="100__ na_ve.txt"; filename*=UTF-8''100%25%3B%20na%C3%AFve.txt`,
  )
})

t.test(
  'a download is saved under its type’s extension, and shows inline only when its name already had it',
  async (t) => {
    t.equal(
      contentDisposition('image/png', 'evil.html'),
      `attachment; filename="evil.html.png"; filename*=UTF-8''evil.html.png`,
      'a png kept as .html is saved as a png, and not shown in place',
    )
    t.equal(contentDisposition('image/jpeg', 'photo'), `attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`)
    t.equal(contentDisposition('image/jpeg', 'IMG.JPEG'), `inline; filename="IMG.JPEG"; filename*=UTF-8''IMG.JPEG`)
    t.equal(servedFilename('text/plain', 'notes.html'), 'notes.html.txt')
    t.equal(servedFilename('application/pdf', 'Rechnung.pdf'), 'Rechnung.pdf')
    t.equal(servedFilename('application/zip', 'bundle.zip'), 'bundle.zip', 'a type outside the defaults keeps its name')
  },
)

t.test('mayUseSession', async (t) => {
  const hash = createHash('sha256').update('secret-credential').digest('hex')
  const session = { tenant_id: 'acme', workspace_id: 'support', customer_id: 'cust-1', visitor_secret_hash: hash }
  const agent = testPrincipal({ user_id: 'agent-1', kind: 'agent' })
  t.ok(mayUseSession(session, agent, undefined), 'staff of the scope')
  t.notOk(mayUseSession(session, testPrincipal({ kind: 'agent', workspace_id: 'sales' }), undefined))
  t.ok(mayUseSession(session, testPrincipal({ kind: 'admin', tenant_id: '', workspace_id: '' }), undefined))
  t.ok(mayUseSession(session, testPrincipal({ kind: 'service' }), undefined))
  t.ok(mayUseSession(session, testPrincipal({ kind: 'end_user', user_id: 'cust-1' }), undefined), 'its customer')
  t.notOk(mayUseSession(session, testPrincipal({ kind: 'end_user', user_id: 'cust-2' }), undefined))
  t.notOk(
    mayUseSession(session, testPrincipal({ kind: 'end_user', user_id: 'cust-1', tenant_id: 'globex' }), undefined),
    'the same user id in another tenant is someone else',
  )
  t.notOk(mayUseSession({ ...session, customer_id: null }, testPrincipal({ kind: 'end_user', user_id: '' }), undefined))
  t.ok(mayUseSession(session, null, 'secret-credential'), 'the visitor with its credential')
  t.ok(mayUseSession({ ...session, visitor_secret_hash: hash.toUpperCase() }, null, 'secret-credential'))
  t.notOk(mayUseSession(session, null, 'secret-credentiaL'))
  t.notOk(mayUseSession(session, null, ''))
  t.notOk(mayUseSession(session, null, undefined))
  t.notOk(mayUseSession({ ...session, visitor_secret_hash: null }, null, 'secret-credential'))
  t.notOk(mayUseSession({ ...session, visitor_secret_hash: 'short' }, null, 'secret-credential'))
})
