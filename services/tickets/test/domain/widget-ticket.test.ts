import t from 'tap'
import { WIDGET_TITLE_CHARS, widgetTicketTitle } from '../../src/domain/widget-ticket.ts'

t.test("a widget ticket's title: the message's first line, bounded", async (t) => {
  t.equal(widgetTicketTitle('  Nobody answered.\nPlease call me back.'), 'Nobody answered.')
  t.equal(widgetTicketTitle('One line\r\nanother'), 'One line')
  t.equal(widgetTicketTitle('\n\n  \n'), 'Message from the chat widget', 'nothing but blank lines')
  const long = widgetTicketTitle('x'.repeat(500))
  t.equal(long.length, WIDGET_TITLE_CHARS)
  t.ok(long.endsWith('…'))
  t.equal(widgetTicketTitle('y'.repeat(WIDGET_TITLE_CHARS)), 'y'.repeat(WIDGET_TITLE_CHARS), 'exactly the bound: kept')
})
