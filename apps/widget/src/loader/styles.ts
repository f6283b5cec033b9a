import type { LoaderOptions } from './options.ts'

/** Launcher size and gap to the viewport's edges and to the panel above it (px). */
export const SIZE = 56
const GAP = 20

/**
 * The host element's only style, inline and `!important` on every property: an inline important declaration beats any
 * rule of the host page's style sheets, even `* { display: none !important }`. `all: initial` first, so nothing the
 * page sets (or that its root passes down by inheritance) reaches the launcher. Its box is the launcher's: the panel
 * is positioned outside it, and is not rendered while closed, so nothing invisible sits over the host page.
 * Set through the CSSOM (`style.setProperty`), which a page's CSP without 'unsafe-inline' allows; a style attribute
 * would be refused there.
 */
export function hostStyle(o: LoaderOptions): Array<[string, string]> {
  return [
    ['all', 'initial'],
    ['display', 'block'],
    ['position', 'fixed'],
    ['z-index', String(o.zIndex)],
    ['bottom', `${GAP}px`],
    [o.left ? 'left' : 'right', `${GAP}px`],
    ['width', `${SIZE}px`],
    ['height', `${SIZE}px`],
    ['margin', '0'],
    ['padding', '0'],
    ['border', '0'],
    ['visibility', 'visible'],
    ['opacity', '1'],
    ['transform', 'none'],
    ['clip-path', 'none'],
    ['pointer-events', 'auto'],
    ['contain', 'none'],
  ]
}

/** The shadow root's sheet: the page's styles never cross into it, and these never leak out. */
export function shadowCss(o: LoaderOptions) {
  const side = o.left ? 'left' : 'right'
  return `
*{box-sizing:border-box}
button{all:initial;position:relative;display:flex;align-items:center;justify-content:center;width:${SIZE}px;height:${SIZE}px;border-radius:50%;background:var(--c,#1f5fd1);color:#fff;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.3)}
button:focus-visible{outline:3px solid #fff;box-shadow:0 0 0 6px #1f5fd1}
svg{width:28px;height:28px;fill:currentColor}
b{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 6px;border-radius:10px;background:#c5221f;color:#fff;font:700 12px/20px system-ui,sans-serif;text-align:center}
b:empty{display:none}
iframe{display:none;position:absolute;bottom:${SIZE + 16}px;${side}:0;width:380px;height:600px;max-height:calc(100vh - ${SIZE + 16 + 2 * GAP}px);border:0;border-radius:12px;background:#fff;box-shadow:0 8px 30px rgba(0,0,0,.3);color-scheme:normal}
.o iframe{display:block}
.m iframe{position:fixed;top:0;left:0;width:100vw;height:100vh;max-height:none;border-radius:0}
.m.o button{display:none}
`
}

/** A speech bubble when closed, a cross when open (both decorative: the button's name says what it does). */
export const ICON_CHAT = 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z'
export const ICON_CLOSE = 'M6 6l12 12M18 6 6 18'

const SVG = 'http://www.w3.org/2000/svg'

/**
 * An icon made element by element, not through innerHTML: a page enforcing Trusted Types refuses string HTML.
 * `stroked`: drawn as lines (the cross) rather than filled.
 */
export function icon(d: string, stroked = false): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', d)
  if (stroked) {
    path.setAttribute('fill', 'none')
    path.setAttribute('stroke', 'currentColor')
    path.setAttribute('stroke-width', '2.5')
  }
  svg.append(path)
  return svg
}
