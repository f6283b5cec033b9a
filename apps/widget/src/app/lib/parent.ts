/**
 * The frame's side of the loader ↔ frame messages (the widget contract): always to the host page's exact origin
 * (`location.ancestorOrigins[0]`, else the `embed_origin` the loader put in the URL), never `'*'`; a message is
 * taken only from the parent window and that origin. Opened directly (no parent), the frame is its own page: open,
 * and nothing is posted.
 */
export interface LoaderLink {
  embedded: boolean
  post(message: { type: string; [k: string]: unknown }): void
  listen(on: { open(): void; close(): void }): void
}

export function loaderLink(embedOrigin: string | null): LoaderLink {
  const embedded = window.parent !== window
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins
  const origin = (ancestors && ancestors.length > 0 ? ancestors[0] : null) ?? embedOrigin
  const usable = embedded && !!origin && origin !== 'null'
  return {
    embedded,
    post(message) {
      if (usable) window.parent.postMessage(message, origin!)
    },
    listen(on) {
      if (!usable) return
      window.addEventListener('message', (event) => {
        if (event.source !== window.parent || event.origin !== origin) return
        const type = (event.data as { type?: unknown } | null)?.type
        if (type === 'switchboard:open') on.open()
        else if (type === 'switchboard:close') on.close()
      })
    },
  }
}
