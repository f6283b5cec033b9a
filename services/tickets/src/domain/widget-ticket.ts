// A widget visitor's "leave a message" as a ticket (issue 21). Pure.

/** A ticket's title from the visitor's message: its first line, at most this many characters. */
export const WIDGET_TITLE_CHARS = 120
const UNTITLED = 'Message from the chat widget'

export function widgetTicketTitle(content: string): string {
  const line = content.trim().split(/\r?\n/, 1)[0]?.trim() || UNTITLED
  return line.length > WIDGET_TITLE_CHARS ? `${line.slice(0, WIDGET_TITLE_CHARS - 1)}…` : line
}
