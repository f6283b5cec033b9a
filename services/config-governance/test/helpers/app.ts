import type { Principal } from '@switchboard/contracts'
import {
  ACME_ADMIN,
  principalHeader,
  type StorageMode,
  serviceApp,
  TEST_INTERNAL_SECRET,
  testPrincipal,
} from '@switchboard/testing'
import type { Test } from 'tap'
import { configGovernance } from '../../src/build.ts'

export const INTERNAL_SECRET = TEST_INTERNAL_SECRET

/**
 * Two administrators of acme/support: dual control needs a second person. Their tokens are bound to workspace
 * `support` (an admin who signed in to that workspace): they govern the workspace, read the tenant, never change it.
 */
export const ALICE = testPrincipal({ user_id: 'alice' }, ACME_ADMIN)
export const BOB = testPrincipal({ user_id: 'bob' }, ACME_ADMIN)

/**
 * The same two as tenant administrators: tokens of tenant acme bound to no workspace (identity's login of a tenant
 * administrator with several workspaces), here narrowed to `support` by X-Workspace-ID as the gateway allows an
 * admin. They may change the tenant document.
 */
export const TENANT_ALICE: Principal = { ...ALICE, token_tenant_id: 'acme', token_workspace_id: '' }
export const TENANT_BOB: Principal = { ...BOB, token_tenant_id: 'acme', token_workspace_id: '' }

/** An unscoped platform administrator naming acme with X-Tenant-ID (no workspace selector). */
export const PLATFORM_ADMIN: Principal = {
  ...ACME_ADMIN,
  user_id: 'root',
  workspace_id: '',
  token_tenant_id: '',
  token_workspace_id: '',
}
export const as = (p: Principal) => principalHeader(INTERNAL_SECRET, p)

/** A config-governance app on isolated storage, closed and cleaned up when the test ends. */
export function governanceApp(t: Test, mode: StorageMode, env: Record<string, string> = {}) {
  return serviceApp(t, configGovernance, mode, { label: 'cg', env: { PORTAL_CACHE_MS: '0', ...env } })
}
