/** What the embedding tag says: `<script src=".../widget.js" data-tenant data-workspace [data-color] …>`. */
export interface LoaderOptions {
  /** the gateway's origin, where widget.js came from and the frame is served */
  origin: string
  tenant: string
  workspace: string
  color: string | null
  left: boolean
  locale: 'en' | 'zh-CN'
  zIndex: number
}

/** the default: as the root's last child, the launcher paints over a page's overlay even at this same z-index */
const MAX_Z = 2147483647

export function readOptions(script: HTMLScriptElement): LoaderOptions | null {
  const d = script.dataset
  if (!d.tenant || !d.workspace) return null
  const z = Number.parseInt(d.zIndex ?? '', 10)
  // CSS.supports: a colour only, never a declaration smuggled into the launcher's style
  const color = d.color && CSS.supports('color', d.color) ? d.color : null
  const locale = (d.locale || navigator.language || '').toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
  return {
    origin: new URL(script.src).origin,
    tenant: d.tenant,
    workspace: d.workspace,
    color,
    left: d.position === 'bottom-left',
    locale,
    zIndex: Number.isFinite(z) ? Math.min(Math.max(z, 0), MAX_Z) : MAX_Z,
  }
}

const STRINGS = {
  en: { open: 'Open chat', close: 'Close chat', unread: (n: number) => `, ${n} unread`, title: 'Chat' },
  'zh-CN': { open: '打开聊天', close: '关闭聊天', unread: (n: number) => `，${n} 条未读`, title: '聊天' },
}

export const strings = (locale: LoaderOptions['locale']) => STRINGS[locale]
