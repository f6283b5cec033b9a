import { createJetStreamBus, type DeadLetter } from '@switchboard/events'
import type { Logger } from '@switchboard/platform'

/** Where the dead letters live: JetStream itself, or the gateway's ops surface (the embedded mode's bus is in-process). */
export type DeadLetterSource =
  | { kind: 'nats'; url: string; prefix?: string; logger: Logger }
  | { kind: 'http'; gateway: string; token: string }

export interface DeadLetterClient {
  list(opts: { consumer?: string; limit?: number }): Promise<DeadLetter[]>
  replay(opts: {
    seqs?: number[]
    consumer?: string
    onProgress?: (done: number, total: number) => void
  }): Promise<number>
  close(): Promise<void>
}

export class OpsHttpError extends Error {
  override name = 'OpsHttpError'
  status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, base), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {}
  if (!res.ok)
    throw new OpsHttpError(res.status, `${method} ${path} → ${res.status} ${json.code ?? ''} ${json.message ?? text}`)
  return json
}

export async function openDeadLetters(source: DeadLetterSource): Promise<DeadLetterClient> {
  if (source.kind === 'nats') {
    const bus = await createJetStreamBus({
      url: source.url,
      prefix: source.prefix,
      logger: source.logger,
      name: 'switchboard-cli',
    })
    return {
      list: (opts) => bus.deadLetters(opts),
      replay: (opts) => bus.replayDeadLetters(opts),
      close: () => bus.close(),
    }
  }
  const { gateway, token } = source
  const client: DeadLetterClient = {
    async list(opts) {
      const q = new URLSearchParams()
      if (opts.consumer) q.set('consumer', opts.consumer)
      if (opts.limit) q.set('limit', String(opts.limit))
      const json = await call(gateway, token, 'GET', `/api/ops/dead-letters${q.size ? `?${q}` : ''}`)
      return (json.items ?? []) as DeadLetter[]
    },
    async replay(opts) {
      // One request replays the lot server-side, so progress jumps from 0 to done.
      const total = opts.seqs?.length ?? (await client.list({ consumer: opts.consumer })).length
      opts.onProgress?.(0, total)
      const body: Record<string, unknown> = {}
      if (opts.seqs) body.seqs = opts.seqs
      if (opts.consumer) body.consumer = opts.consumer
      const json = await call(gateway, token, 'POST', '/api/ops/dead-letters/replay', body)
      const replayed = Number(json.replayed ?? 0)
      opts.onProgress?.(replayed, Math.max(total, replayed))
      return replayed
    },
    close: async () => {},
  }
  return client
}
