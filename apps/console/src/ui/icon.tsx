/**
 * A decorative icon: a CSS mask (styles.css, `[data-icon=…]`) painted in the text colour, so it follows the theme
 * and the state of its control. Always `aria-hidden`: the control it sits in carries the accessible name.
 */
export type IconName = 'moon' | 'logout' | 'globe' | 'sound' | 'bell' | 'inbox' | 'ticket'

export function Icon({ name }: { name: IconName }) {
  return <span className="icon" data-icon={name} aria-hidden="true" />
}
