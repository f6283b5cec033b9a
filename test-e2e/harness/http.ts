/** A small JSON client over real HTTP (fetch), so every call goes through the gateway's socket. */
export interface Reply<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface CallOptions {
  token?: string
  headers?: Record<string, string>
  body?: unknown
}

export interface Client {
  readonly base: string
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<Reply<T>>
  get<T = any>(path: string, opts?: CallOptions): Promise<Reply<T>>
  post<T = any>(path: string, body?: unknown, opts?: CallOptions): Promise<Reply<T>>
  put<T = any>(path: string, body?: unknown, opts?: CallOptions): Promise<Reply<T>>
}

export function client(base: string): Client {
  const call = async <T>(method: string, path: string, opts: CallOptions = {}): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(new URL(path, base), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(15_000),
    })
    const text = await res.text()
    let body: any = text
    if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text)
    return { status: res.status, headers: res.headers, body, text }
  }
  return {
    base,
    call,
    get: (path, opts) => call('GET', path, opts),
    post: (path, body, opts) => call('POST', path, { ...opts, body }),
    put: (path, body, opts) => call('PUT', path, { ...opts, body }),
  }
}

/** Polls until `fn` returns something other than undefined, or fails after `ms` naming what it waited for. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 15_000, everyMs = 150): Promise<T> {
  const deadline = Date.now() + ms
  let lastErr: unknown
  for (;;) {
    try {
      const v = await fn()
      if (v !== undefined) return v
    } catch (err) {
      lastErr = err
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}${lastErr ? ` (last error: ${lastErr})` : ''}`)
    }
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
