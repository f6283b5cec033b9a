/**
 * Macro placeholders, pure: `{{customer.name}}`, `{{ticket.id}}`, `{{agent.name}}` (spaces inside the braces
 * allowed). One pass over the template: a value is inserted as plain text and never read as a placeholder itself
 * (a customer named "{{agent.name}}" stays that), and a placeholder this list does not know is left as written.
 */
export const MACRO_PLACEHOLDERS = ['customer.name', 'ticket.id', 'agent.name'] as const
export type MacroValues = Partial<Record<(typeof MACRO_PLACEHOLDERS)[number], string>>

const PLACEHOLDER = /\{\{\s*([a-z_]+\.[a-z_]+)\s*\}\}/g

export function renderMacro(template: string, values: MacroValues): string {
  return template.replace(PLACEHOLDER, (whole, key: string) =>
    (MACRO_PLACEHOLDERS as readonly string[]).includes(key) ? plainText(values[key as keyof MacroValues] ?? '') : whole,
  )
}

// Plain text: control characters other than line breaks and tabs are dropped from a value (a display name
// carrying an escape sequence or a NUL does not reach the thread).
const plainText = (value: string) =>
  [...value]
    .filter((ch) => {
      const c = ch.charCodeAt(0)
      return c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127)
    })
    .join('')
