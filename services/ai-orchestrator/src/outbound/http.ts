import type { Dispatcher } from 'undici'
import { AddressNotAllowedError, NOT_ALLOWED } from './address-guard.ts'

/**
 * One JSON call to an external dependency (the knowledge providers, the LLM) with its failure sorted into the kinds
 * the ports know: a timeout, an HTTP error status, an answer that is not what was asked for, or no connection.
 * Each adapter turns an `OutboundFailure` into its own error (ProviderError, LlmError).
 */
export type OutboundFailureKind = 'timeout' | 'http' | 'invalid' | 'connection'

export class OutboundFailure extends Error {
  override name = 'OutboundFailure'
  readonly kind: OutboundFailureKind
  readonly status: number | undefined
  /** the start of an error answer's body: for logs only, never in a message a caller sees (it may be anything) */
  readonly detail: string | undefined
  constructor(kind: OutboundFailureKind, message: string, status?: number, cause?: unknown, detail?: string) {
    super(message, cause === undefined ? undefined : { cause })
    this.kind = kind
    this.status = status
    this.detail = detail
  }
}

/** Error bodies are kept (for logs) up to this many characters (enough to see the provider's reason). */
const QUOTED_CHARS = 200

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  headers?: Record<string, string>
  body?: unknown
  /** aborts the call, body included; a fired `AbortSignal.timeout` is a 'timeout' */
  signal: AbortSignal
  /**
   * how to connect: a governed endpoint's guarded dispatcher (address-guard.ts); absent, the plain fetch of the
   * system's own endpoints
   */
  dispatcher?: Dispatcher | undefined
}

/** A fetch failure of any phase (connecting, waiting, reading the body) as an OutboundFailure. */
export function classify(err: unknown, what: string): OutboundFailure {
  if (err instanceof OutboundFailure) return err
  const refused = refusalIn(err)
  // the host as configured, never the address it resolved to (a scope's admin must not learn the network's names)
  if (refused)
    return new OutboundFailure('connection', `${what} failed: ${NOT_ALLOWED} (${refused.host})`, undefined, err)
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return new OutboundFailure('timeout', `${what} timed out`)
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err)
  return new OutboundFailure('connection', `${what} failed: ${reason}`, undefined, err)
}

/** Did the address guard refuse the connection? Trying again cannot help: the address stays what it is. */
export const refusedByGuard = (err: unknown): boolean => refusalIn(err) !== undefined

/** The guard's refusal, wherever fetch put it in the chain of causes. */
function refusalIn(err: unknown): AddressNotAllowedError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++)
    if (e instanceof AddressNotAllowedError) return e
  return undefined
}

/**
 * Sends the request; a status ≥ 400 is a failure naming the status. The body's start goes to `detail` (logged), not
 * into the message: messages reach callers (status, a doc's sync error), and a body is whatever the endpoint said.
 */
export async function send(req: OutboundRequest, what: string): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers }
  if (req.body !== undefined) headers['content-type'] = 'application/json'
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body: req.body === undefined ? null : JSON.stringify(req.body),
      signal: req.signal,
      redirect: 'error',
      ...(req.dispatcher ? { dispatcher: req.dispatcher } : {}),
    })
    if (res.status >= 400) {
      const text = (await res.text().catch(() => '')).slice(0, QUOTED_CHARS)
      throw new OutboundFailure('http', `${what} answered ${res.status}`, res.status, undefined, text || undefined)
    }
    return res
  } catch (err) {
    throw classify(err, what)
  }
}

/** The answer's JSON body; not JSON (or empty) is 'invalid'. */
export async function readJson(res: Response, what: string): Promise<unknown> {
  let text: string
  try {
    text = await res.text()
  } catch (err) {
    throw classify(err, what)
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new OutboundFailure('invalid', `${what} answered something that is not JSON`, res.status)
  }
}

/** `send` then `readJson`. */
export async function callJson(req: OutboundRequest, what: string): Promise<unknown> {
  return readJson(await send(req, what), what)
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** A base URL without its trailing slashes, so paths can be appended. */
export const trimBase = (url: string) => url.replace(/\/+$/, '')
