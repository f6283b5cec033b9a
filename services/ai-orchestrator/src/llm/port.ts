/** An OpenAI-compatible chat model (`POST {base_url}/chat/completions`). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface Completion {
  content: string
  model: string
  tokens: { prompt: number; completion: number; total: number }
}

export interface CompleteOptions {
  /** `stream: true`: each piece of the answer as it arrives (server-sent events of the chat API) */
  onDelta?: (text: string) => void
}

export interface LlmClient {
  readonly configured: boolean
  /** throws LlmError on timeout, HTTP error or an answer that is not the chat API's shape */
  complete(messages: ChatMessage[], opts?: CompleteOptions): Promise<Completion>
}

export type LlmErrorKind = 'timeout' | 'http' | 'invalid' | 'connection' | 'unavailable'

export class LlmError extends Error {
  override name = 'LlmError'
  readonly kind: LlmErrorKind
  readonly status: number | undefined
  constructor(kind: LlmErrorKind, message: string, status?: number) {
    super(message)
    this.kind = kind
    this.status = status
  }
}
