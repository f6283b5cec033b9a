import { OutboundFailure } from '../outbound/http.ts'

/** A line longer than this is not an event of the chat API: reading stops there. */
const MAX_LINE_CHARS = 1024 * 1024

/**
 * The `data` of each server-sent event of a response body, as it arrives (the chat API streams one JSON chunk per
 * event, then `[DONE]`). Comments and the other fields (`event`, `id`, `retry`) are skipped; several `data:` lines of
 * one event are joined with newlines, as the SSE format says.
 */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffer = ''
  let data: string[] = []
  const line = function* (raw: string): Generator<string> {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (text === '') {
      if (data.length > 0) yield data.join('\n')
      data = []
    } else if (text.startsWith('data:')) {
      data.push(text.slice(text.startsWith('data: ') ? 6 : 5))
    }
  }
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true })
    let start = 0
    let end = buffer.indexOf('\n')
    while (end >= 0) {
      yield* line(buffer.slice(start, end))
      start = end + 1
      end = buffer.indexOf('\n', start)
    }
    buffer = buffer.slice(start)
    if (buffer.length > MAX_LINE_CHARS) throw new OutboundFailure('invalid', 'a server-sent event line is too long')
  }
  buffer += decoder.decode()
  if (buffer !== '') yield* line(buffer)
  yield* line('')
}
