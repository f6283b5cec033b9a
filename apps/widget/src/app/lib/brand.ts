/**
 * The brand colour as CSS variables (set through the CSSOM: the frame's CSP allows no inline style). Any colour a
 * workspace picks stays readable: the text on it is black or white, whichever contrasts more, and `--brand-ink`
 * (the colour used as text or outline on white) is the brand darkened until it reaches 4.5:1 on white (WCAG AA).
 */
type Rgb = [number, number, number]

const channel = (v: number) => {
  const c = v / 255
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}
const luminance = ([r, g, b]: Rgb) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`

/** `rgb(r, g, b)` / `rgba(…)` as the CSSOM computes any colour. */
export function parseRgb(computed: string): Rgb | null {
  const m = /^rgba?\((\d+)[ ,]+(\d+)[ ,]+(\d+)/.exec(computed)
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null
}

export function brandVars(c: Rgb): Record<string, string> {
  const l = luminance(c)
  const on = contrast(l, 1) >= contrast(l, 0) ? '#ffffff' : '#111111'
  let ink = c
  for (let i = 0; i < 30 && contrast(luminance(ink), 1) < 4.6; i++) ink = ink.map((v) => v * 0.88) as Rgb
  return { '--brand': hex(c), '--on-brand': on, '--brand-ink': hex(ink) }
}

/** Any CSS colour (a name, hex, rgb()), checked and resolved by the browser; false when it is none. */
export function applyBrand(color: string | null | undefined): boolean {
  if (!color || !CSS.supports('color', color)) return false
  const probe = document.createElement('i')
  probe.style.color = color
  document.body.append(probe)
  const c = parseRgb(getComputedStyle(probe).color)
  probe.remove()
  if (!c) return false
  const style = document.documentElement.style
  for (const [k, v] of Object.entries(brandVars(c))) style.setProperty(k, v)
  return true
}
