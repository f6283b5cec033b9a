import type { Dispatcher } from 'undici'
import type { LlmSettings } from '../config.ts'
import { classify, isObject, OutboundFailure, readJson, send, trimBase } from '../outbound/http.ts'
import { type ChatMessage, type CompleteOptions, type Completion, type LlmClient, LlmError } from './port.ts'
import { sseData } from './sse.ts'

const WHAT = 'LLM'

/**
 * The OpenAI-compatible chat model (`POST {base_url}/chat/completions`, bearer key when set). With `onDelta` the
 * answer is streamed (`stream: true`, usage asked for in the last chunk) and each piece handed over as it arrives;
 * a server that answers JSON instead is taken as one piece. The whole call, stream included, is bounded by
 * `timeout_ms`. A governed endpoint's calls go through the guarded `dispatcher` (outbound/address-guard.ts).
 */
export function createLlmClient(settings: LlmSettings, dispatcher?: Dispatcher): LlmClient {
  const base = trimBase(settings.base_url)
  const headers: Record<string, string> = settings.api_key ? { authorization: `Bearer ${settings.api_key}` } : {}

  return {
    configured: base !== '',

    async complete(messages: ChatMessage[], opts: CompleteOptions = {}): Promise<Completion> {
      if (!base) throw new LlmError('unavailable', 'no LLM is configured (LLM_BASE_URL)')
      const { onDelta } = opts
      const body = {
        model: settings.model,
        messages,
        temperature: settings.temperature,
        max_tokens: settings.max_tokens,
        ...(onDelta ? { stream: true, stream_options: { include_usage: true } } : {}),
      }
      try {
        const signal = AbortSignal.timeout(settings.timeout_ms)
        const res = await send(
          { method: 'POST', url: `${base}/chat/completions`, headers, body, signal, dispatcher },
          WHAT,
        )
        const streamed = res.headers.get('content-type')?.includes('text/event-stream') ?? false
        if (onDelta && streamed) return await readStream(res, settings.model, onDelta)
        const completion = readCompletion(await readJson(res, WHAT), settings.model)
        if (onDelta && completion.content) relay(onDelta, completion.content)
        return completion
      } catch (err) {
        const failure = err instanceof OutboundFailure ? err : classify(err, WHAT)
        throw new LlmError(failure.kind, failure.message, failure.status)
      }
    },
  }
}

/** A failing listener (a closed WebSocket) must not fail the answer, which is still returned whole. */
function relay(onDelta: (text: string) => void, text: string) {
  try {
    onDelta(text)
  } catch {}
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0)

/** `usage` of the chat API; absent counts are 0 (a server that does not report usage). */
function tokensOf(usage: unknown): Completion['tokens'] {
  const u = isObject(usage) ? usage : {}
  const prompt = count(u.prompt_tokens)
  const completion = count(u.completion_tokens)
  return { prompt, completion, total: count(u.total_tokens) || prompt + completion }
}

function readCompletion(answer: unknown, model: string): Completion {
  const choice = isObject(answer) && Array.isArray(answer.choices) ? answer.choices[0] : undefined
  const message = isObject(choice) ? choice.message : undefined
  const content = isObject(message) ? message.content : undefined
  if (typeof content !== 'string')
    throw new OutboundFailure('invalid', `${WHAT} answered no choices[0].message.content`)
  const answered = answer as Record<string, unknown>
  return {
    content,
    model: typeof answered.model === 'string' ? answered.model : model,
    tokens: tokensOf(answered.usage),
  }
}

/** The chunks of a streamed answer until `[DONE]`; a stream that stops before it (or a finish) is cut short. */
async function readStream(res: Response, model: string, onDelta: (text: string) => void): Promise<Completion> {
  if (!res.body) throw new OutboundFailure('invalid', `${WHAT} answered an empty stream`)
  let content = ''
  let answeredModel = model
  let tokens: Completion['tokens'] = { prompt: 0, completion: 0, total: 0 }
  let finished = false
  for await (const data of sseData(res.body)) {
    if (data.trim() === '[DONE]') {
      finished = true
      break
    }
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      throw new OutboundFailure('invalid', `${WHAT} streamed a chunk that is not JSON`)
    }
    if (!isObject(chunk)) throw new OutboundFailure('invalid', `${WHAT} streamed a chunk that is not an object`)
    if (isObject(chunk.error))
      throw new OutboundFailure('http', `${WHAT} streamed an error: ${String(chunk.error.message ?? 'no message')}`)
    if (typeof chunk.model === 'string') answeredModel = chunk.model
    if (isObject(chunk.usage)) tokens = tokensOf(chunk.usage)
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined
    if (!isObject(choice)) continue // the usage chunk has no choices
    const delta = isObject(choice.delta) ? choice.delta.content : undefined
    if (typeof delta === 'string' && delta !== '') {
      content += delta
      relay(onDelta, delta)
    }
    if (typeof choice.finish_reason === 'string') finished = true
  }
  if (!finished) throw new OutboundFailure('invalid', `${WHAT} stream ended before [DONE]`)
  return { content, model: answeredModel, tokens }
}
