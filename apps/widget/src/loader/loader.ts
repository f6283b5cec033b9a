// The embeddable loader (dist/widget.js, ≤ 3 KB gzip): a launcher button in a shadow root, and the chat app in
// an iframe served from the gateway's origin — made when the page is idle or on the first click. It reads nothing of
// the host page but its own tag and talks to the frame by postMessage, to the gateway's origin only (contract:
// apps/widget/README.md, "The loader").
import { type LoaderOptions, readOptions, strings } from './options.ts'
import { hostStyle, ICON_CHAT, ICON_CLOSE, icon, shadowCss } from './styles.ts'

/** Under this width the open widget takes the whole (visual) viewport. */
const MOBILE = 480

function start(o: LoaderOptions) {
  const t = strings(o.locale)
  const host = document.createElement('switchboard-widget')
  for (const [name, value] of hostStyle(o)) host.style.setProperty(name, value, 'important')
  // open: tests and accessibility checkers reach the launcher; the chat itself is isolated by the cross-origin
  // frame, not by the shadow root
  const root = host.attachShadow({ mode: 'open' })
  const box = document.createElement('div')
  if (o.color) box.style.setProperty('--c', o.color)
  const button = document.createElement('button')
  button.type = 'button'
  const chatIcon = icon(ICON_CHAT)
  const closeIcon = icon(ICON_CLOSE, true)
  const badge = document.createElement('b')
  badge.setAttribute('aria-hidden', 'true')
  box.append(button)
  // a constructed sheet: a page's CSP without 'unsafe-inline' refuses a <style> element, even in a shadow root,
  // but not the CSSOM (a <style> only where constructed sheets are missing: Safari before 16.4)
  if (root.adoptedStyleSheets) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(shadowCss(o))
    root.adoptedStyleSheets = [sheet]
  } else {
    const style = document.createElement('style')
    style.textContent = shadowCss(o)
    root.append(style)
  }
  root.append(box)

  let frame: HTMLIFrameElement | null = null
  let open = false
  let unread = 0

  function render() {
    const mobile = innerWidth < MOBILE
    box.className = (open ? 'o ' : '') + (mobile ? 'm' : '')
    const count = open ? 0 : unread
    badge.textContent = count ? String(Math.min(count, 99)) : ''
    button.replaceChildren(open ? closeIcon : chatIcon, badge)
    button.setAttribute('aria-label', open ? t.close : t.open + (count ? t.unread(count) : ''))
    button.setAttribute('aria-expanded', String(open))
    follow()
  }

  // Full screen under MOBILE px: the panel tracks the visual viewport, so an on-screen keyboard shrinks it from the
  // bottom instead of covering the composer and the last message.
  function follow() {
    const vv = visualViewport
    if (!frame) return
    const s = frame.style
    if (open && innerWidth < MOBILE && vv) {
      s.top = `${vv.offsetTop}px`
      s.left = `${vv.offsetLeft}px`
      s.width = `${vv.width}px`
      s.height = `${vv.height}px`
    } else s.cssText = ''
  }

  function post(type: string) {
    frame?.contentWindow?.postMessage({ type }, o.origin)
  }

  function ensureFrame() {
    if (frame) return frame
    const q = new URLSearchParams({
      tenant_id: o.tenant,
      workspace_id: o.workspace,
      locale: o.locale,
      embed_origin: location.origin,
    })
    if (o.color) q.set('color', o.color)
    frame = document.createElement('iframe')
    frame.title = t.title
    frame.src = `${o.origin}/widget/?${q}`
    frame.allow = 'clipboard-write'
    box.append(frame)
    return frame
  }

  function setOpen(next: boolean, fromFrame = false) {
    if (next === open) return
    open = next
    if (open) unread = 0
    ensureFrame()
    render()
    if (!fromFrame) post(open ? 'switchboard:open' : 'switchboard:close')
    if (open) frame!.focus()
    else if (fromFrame) button.focus()
  }

  button.addEventListener('click', () => setOpen(!open))
  addEventListener('message', (e: MessageEvent) => {
    // only the frame this loader made, from the gateway's origin
    if (!frame || e.source !== frame.contentWindow || e.origin !== o.origin) return
    const m = e.data as { type?: unknown; count?: unknown; mode?: unknown } | null
    switch (m?.type) {
      case 'switchboard:ready':
        if (open) post('switchboard:open')
        break
      case 'switchboard:unread':
        if (typeof m.count === 'number' && m.count >= 0) {
          unread = Math.floor(m.count)
          render()
        }
        break
      case 'switchboard:close':
        setOpen(false, true)
        break
      case 'switchboard:resize':
        if (m.mode === 'open' || m.mode === 'closed') setOpen(m.mode === 'open', true)
    }
  })
  addEventListener('resize', render)
  visualViewport?.addEventListener('resize', follow)
  visualViewport?.addEventListener('scroll', follow)

  render()
  // after <body>, as the root's last child: a page hiding its body's children still leaves the launcher
  document.documentElement.append(host)
  // the chat loads while the page is idle, so the first click opens it at once (Safari has no requestIdleCallback)
  if ('requestIdleCallback' in window) requestIdleCallback(ensureFrame, { timeout: 4000 })
  else setTimeout(ensureFrame, 1500)
}

const w = window as unknown as { __switchboardWidget?: boolean }
const script = document.currentScript as HTMLScriptElement | null
const options = script && !w.__switchboardWidget ? readOptions(script) : null
if (options) {
  w.__switchboardWidget = true
  start(options)
} else if (!w.__switchboardWidget)
  console.error('switchboard widget: the script tag needs data-tenant and data-workspace')
