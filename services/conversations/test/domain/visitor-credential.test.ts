import t from 'tap'
import {
  hashVisitorCredential,
  issueVisitorCredential,
  visitorCredentialMatches,
} from '../../src/domain/visitor-credential.ts'

t.test('a credential is 32 random bytes, base64url, and only its SHA-256 is kept', async (t) => {
  const a = issueVisitorCredential()
  const b = issueVisitorCredential()
  t.match(a.credential, /^[A-Za-z0-9_-]{43}$/)
  t.equal(Buffer.from(a.credential, 'base64url').length, 32)
  t.not(a.credential, b.credential)
  t.match(a.hash, /^[0-9a-f]{64}$/)
  t.equal(a.hash, hashVisitorCredential(a.credential))
  t.not(a.hash, a.credential)
})

t.test('matches only the credential it was issued with', async (t) => {
  const { credential, hash } = issueVisitorCredential()
  t.ok(visitorCredentialMatches(credential, hash))
  t.notOk(visitorCredentialMatches(`${credential}x`, hash))
  t.notOk(visitorCredentialMatches(issueVisitorCredential().credential, hash))
  t.notOk(visitorCredentialMatches('', hash))
  t.notOk(visitorCredentialMatches(credential, null), 'a session without a visitor has no credential')
  t.notOk(visitorCredentialMatches(credential, 'not-hex'), 'a malformed stored hash matches nothing')
  t.notOk(visitorCredentialMatches(hash, hash), 'the hash itself is no credential')
})
