import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { PASSWORD } from '../helpers/app.ts'
import { createMember, directoryFixture, errorShape, login } from '../helpers/directory.ts'

inEachStorageMode(t, 'user activation and deactivation', async (t, mode) => {
  const { app, who, rec } = await directoryFixture(t, mode)
  const carol = await createMember(app, who.acmeAdmin, 'Carol', 'acme.test')
  const gina = await createMember(app, who.globexAdmin, 'Gina', 'globex.test')
  await login(app, 'carol', 'laptop')
  const put = (id: string, headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'PUT', url: `/api/security/users/${id}/status`, headers, payload: payload as object })

  const off = await put(carol.user_id, who.acmeAdmin, { status: 'inactive', reason: 'left the company' })
  t.equal(off.statusCode, 200)
  t.equal(off.json().status, 'inactive')
  const event = await rec.find<any>(
    'identity.user.token_state_changed',
    (d) => d.user.user_id === carol.user_id && d.user.active === false,
  )
  t.ok(event, 'the gateway learns that the user is inactive')
  const audit = await rec.audit('security.users_status', carol.user_id)
  t.equal(audit.before_json.status, 'active')
  t.equal(audit.after_json.status, 'inactive')

  const refused = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { username: 'carol', password: PASSWORD },
  })
  t.equal(refused.statusCode, 403, 'an inactive user cannot log in')
  t.equal(refused.json().code, 'IDENTITY_USER_INACTIVE')

  const again = await put(carol.user_id, who.acmeAdmin, { status: 'inactive' })
  t.equal(again.statusCode, 200, 'setting the same status again changes nothing')
  t.equal(again.json().token_version, off.json().token_version)

  const on = await put(carol.user_id, who.acmeAdmin, { status: 'active' })
  t.equal(on.json().status, 'active')
  await login(app, 'carol', 'laptop')

  t.equal((await put(carol.user_id, who.acmeAdmin, { status: 'paused' })).statusCode, 400, 'unknown status → 400')
  t.equal(
    (await put(carol.user_id, who.acmeAgent, { status: 'inactive' })).statusCode,
    403,
    'agents lack security.write',
  )
  const foreign = await put(gina.user_id, who.acmeAdmin, { status: 'inactive' })
  const missing = await put('no-such-user', who.acmeAdmin, { status: 'inactive' })
  t.equal(missing.statusCode, 404)
  t.same(errorShape(foreign), errorShape(missing), 'another tenant’s user answers like a missing one')
  t.equal((await put(gina.user_id, who.globexAdmin, { status: 'active' })).statusCode, 200)
})
