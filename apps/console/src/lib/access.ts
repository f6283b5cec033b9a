/**
 * What the signed-in user may do — which admin screens to open, which controls to show — read from the claims of the
 * access token the console holds (identity puts the role's expanded `permissions` there). A hint for showing links,
 * screens and buttons only: every route is checked again by the gateway and the service, which refuse it anyway.
 */
import { useAuth } from './auth.tsx'
import { getAccessToken } from './http.ts'

export interface AccessClaims {
  roles: string[]
  permissions: string[]
  principal_kind?: string
  tenant_id?: string
  workspace_id?: string
  /** `'platform'` on a platform-wide administrator's tokens (identity); a tenant administrator's have none */
  admin_reach?: string
}

/** The payload of a JWT, unverified (the server verifies); null when it is not one. */
export function claimsOf(token: string | null): AccessClaims | null {
  const payload = token?.split('.')[1]
  if (!payload) return null
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0))
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Partial<AccessClaims>
    return {
      ...claims,
      roles: Array.isArray(claims.roles) ? claims.roles : [],
      permissions: Array.isArray(claims.permissions) ? claims.permissions : [],
    }
  } catch {
    return null
  }
}

/** As packages/auth's hasPermission: `*` everything, `<resource>.*` every action on the resource. */
export function hasPermission(perms: readonly string[], needed: string): boolean {
  if (perms.includes('*') || perms.includes(needed)) return true
  const dot = needed.indexOf('.')
  return dot > 0 && perms.includes(`${needed.slice(0, dot)}.*`)
}

export interface Access {
  /** the principal kind the gateway derives: the explicit claim, else admin for the admin role */
  kind: string
  has(permission: string): boolean
  /** the token carries `admin_reach: 'platform'`: a platform operator, whom the gateway's ops surface admits */
  platform: boolean
}

export function accessOf(claims: AccessClaims | null): Access {
  const perms = claims?.permissions ?? []
  const kind = claims?.principal_kind ?? (claims?.roles.includes('admin') ? 'admin' : (claims?.roles[0] ?? ''))
  return { kind, has: (p) => hasPermission(perms, p), platform: claims?.admin_reach === 'platform' }
}

/** The signed-in user's access; recomputed when the user changes (a new login, a role change's new tokens). */
export function useAccess(): Access {
  const { user } = useAuth()
  return accessOf(user ? claimsOf(getAccessToken()) : null)
}
