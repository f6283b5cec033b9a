/**
 * What the frame's URL says (`/widget/?tenant_id=&workspace_id=&locale=&color=&embed_origin=`, the widget
 * contract). Read once at start; nothing here is trusted beyond shaping the page: the hub and the API check the
 * scope, and the loader's origin is checked on every message.
 */
export interface FrameParams {
  tenantId: string
  workspaceId: string
  locale: string | null
  color: string | null
  /** the host page's origin, as the loader told it (the hub checks it against the workspace's allowed list) */
  embedOrigin: string | null
}

function originOf(value: string | null): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null
  } catch {
    return null
  }
}

export function readParams(search: string): FrameParams {
  const q = new URLSearchParams(search)
  return {
    tenantId: q.get('tenant_id') ?? '',
    workspaceId: q.get('workspace_id') ?? '',
    locale: q.get('locale'),
    // a colour as the loader passed it (any CSS colour); brand.ts reads it through the CSSOM or ignores it
    color: q.get('color')?.slice(0, 64) || null,
    embedOrigin: originOf(q.get('embed_origin')),
  }
}
