import { randomUUID } from 'node:crypto'
import type { LlmSettings } from '../../src/config.ts'
import {
  type Reply,
  type StandIn,
  type StandInOptions,
  type StandInRequest,
  startStandIn,
  words,
} from './stand-in-server.ts'

export interface LlmStandIn extends StandIn {
  apiKey: string
  /** streamed answers stop before their end (no finish, no `[DONE]`) while this is set */
  cutStreams: boolean
  /** settings of the LLM client pointing at this stand-in (short timeout), with overrides */
  settings(overrides?: Partial<LlmSettings>): LlmSettings
}

interface Message {
  role: string
  content: string
}

/**
 * The answer it composes: the question and every passage it was given (the system messages after the first, the
 * instructions), quoted, so a test can see the answer was built from them.
 */
export function standInAnswer(messages: Message[]): string {
  const question = messages.findLast((m) => m.role === 'user')?.content ?? ''
  const context = messages
    .filter((m) => m.role === 'system')
    .slice(1)
    .map((m) => m.content)
    .join('\n')
  return context ? `Answer to "${question}" from the passages: ${context}` : `No passages were given for "${question}".`
}

/**
 * The OpenAI chat API (`POST /v1/chat/completions`, `Authorization: Bearer <apiKey>` or 401): JSON, or server-sent
 * events when `stream: true` (one chunk per word, a finish chunk, the usage chunk when `stream_options.include_usage`,
 * `[DONE]`). Usage counts words as tokens.
 */
export async function startLlmStandIn(opts: StandInOptions & { apiKey?: string } = {}): Promise<LlmStandIn> {
  const apiKey = opts.apiKey ?? 'llm-key'
  const error = (status: number, message: string, type: string): Reply => ({
    status,
    json: { error: { message, type, code: null } },
  })
  // the returned stand-in once started: its `cutStreams` is what the test set
  let state: { cutStreams: boolean } = { cutStreams: false }

  function handle(req: StandInRequest): Reply {
    if (req.method !== 'POST' || req.segments.join('/') !== 'chat/completions')
      return error(404, 'not found', 'not_found')
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return error(401, 'Incorrect API key', 'invalid_request_error')
    const body = (req.body ?? {}) as { model?: string; messages?: Message[]; stream?: boolean; stream_options?: object }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return error(400, 'messages is required', 'invalid_request_error')
    const model = body.model ?? 'stand-in'
    const content = standInAnswer(body.messages)
    const prompt = body.messages.reduce((n, m) => n + words(String(m.content)).length, 0)
    const completion = words(content).length
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
    const id = `chatcmpl-${randomUUID()}`
    const created = Math.floor(Date.now() / 1000)
    if (!body.stream) {
      const choice = { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }
      return { status: 200, json: { id, object: 'chat.completion', created, model, choices: [choice], usage } }
    }
    const chunk = (choices: unknown[], extra: object = {}) =>
      JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })
    const pieces = content.match(/\S+\s*/g) ?? []
    const events = [
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      ...pieces.map((p) => chunk([{ index: 0, delta: { content: p }, finish_reason: null }])),
    ]
    if (state.cutStreams) return { status: 200, events }
    events.push(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]))
    if (body.stream_options && 'include_usage' in body.stream_options) events.push(chunk([], { usage }))
    events.push('[DONE]')
    return { status: 200, events }
  }

  const server = await startStandIn('/v1', handle, opts, {
    garbage: (req) =>
      (req.body as { stream?: boolean })?.stream
        ? { status: 200, events: ['this is not json', '[DONE]'] }
        : { status: 200, text: '<html>not json</html>' },
    shape: () => ({ status: 200, json: { id: 'x', object: 'chat.completion', choices: [] } }),
  })
  const standIn = Object.assign(server, {
    apiKey,
    cutStreams: false,
    settings: (overrides: Partial<LlmSettings> = {}): LlmSettings => ({
      base_url: server.url,
      api_key: apiKey,
      model: 'stand-in-model',
      temperature: 0.2,
      max_tokens: 500,
      timeout_ms: 1000,
      ...overrides,
    }),
  })
  state = standIn
  return standIn
}
