import t from 'tap'
import { admission, completeSettings, type ScopeRecord } from '../../src/domain/scope-registry.ts'

const open = { public_registration: true, widget_enabled: true }
const rec = (status: string, settings: Partial<typeof open> = {}): ScopeRecord => ({
  status,
  settings: { ...open, ...settings },
})
const active = rec('active')
const disabled = rec('disabled')

t.test('unknown and disabled scopes are refused, the tenant first', async (t) => {
  t.equal(admission(undefined, undefined, 'w', 'register'), 'tenant_not_found')
  t.equal(admission(active, undefined, 'w', 'login'), 'workspace_not_found')
  t.equal(admission(disabled, undefined, 'w', 'login'), 'tenant_disabled', 'a disabled tenant before its workspace')
  t.equal(admission(disabled, disabled, 'w', 'records'), 'tenant_disabled')
  t.equal(admission(active, disabled, 'w', 'records'), 'workspace_disabled')
  t.equal(admission(active, active, 'w', 'login'), undefined)
  t.equal(admission(active, undefined, '', 'login'), undefined, 'a tenant as a whole')
  t.equal(admission(disabled, undefined, '', 'login'), 'tenant_disabled')
})

t.test('a refresh refuses disabled scopes only', async (t) => {
  t.equal(admission(undefined, undefined, 'w', 'refresh'), undefined)
  t.equal(admission(active, undefined, 'w', 'refresh'), undefined)
  t.equal(admission(disabled, undefined, 'w', 'refresh'), 'tenant_disabled')
  t.equal(admission(active, disabled, 'w', 'refresh'), 'workspace_disabled')
})

t.test('registration and the widget need their setting on the tenant and the workspace', async (t) => {
  const closed = rec('active', { public_registration: false })
  const noWidget = rec('active', { widget_enabled: false })
  t.equal(admission(active, active, 'w', 'register'), undefined)
  t.equal(admission(closed, active, 'w', 'register'), 'registration_closed')
  t.equal(admission(active, closed, 'w', 'register'), 'registration_closed')
  t.equal(admission(closed, active, 'w', 'login'), undefined, 'logins do not care')
  t.equal(admission(closed, active, 'w', 'widget'), undefined)
  t.equal(admission(active, noWidget, 'w', 'widget'), 'widget_disabled')
  t.equal(admission(noWidget, active, 'w', 'widget'), 'widget_disabled')
  t.equal(admission(noWidget, active, 'w', 'records'), undefined)
})

t.test('stored settings are completed with the defaults', async (t) => {
  t.same(completeSettings({}), open)
  t.same(completeSettings(null), open)
  t.same(completeSettings({ widget_enabled: false }), { public_registration: true, widget_enabled: false })
})
