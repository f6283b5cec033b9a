// A small OTLP/HTTP traces receiver for the tests: what the units' exporters send (JSON, `POST /v1/traces`) is
// decoded into flat spans, kept in arrival order. Protobuf bodies are refused (415): the units export JSON.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedSpan {
  traceId: string
  spanId: string
  /** '' for a root span */
  parentSpanId: string
  name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number
  /** the resource's `service.name` (each process of the fleet its unit's; the embedded mode one for all) */
  service: string
  attributes: Record<string, string | number | boolean>
}

export const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const

interface AnyValue {
  stringValue?: string
  intValue?: string | number
  doubleValue?: number
  boolValue?: boolean
}
interface KeyValue {
  key: string
  value: AnyValue
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes?: KeyValue[]
}
interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] }
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>
  }>
}

const anyValue = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''))
const attributesOf = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, anyValue(kv.value)]))

export function decodeTraces(body: OtlpTraces): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const rs of body.resourceSpans ?? []) {
    const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '')
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          service,
          attributes: attributesOf(s.attributes),
        })
  }
  return out
}

export interface OtlpReceiver {
  /** the base URL, for OTEL_EXPORTER_OTLP_ENDPOINT */
  url: string
  spans: ReceivedSpan[]
  /** export requests received (each a batch) */
  requests: number
  close(): Promise<void>
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver = { spans: [] as ReceivedSpan[], requests: 0 }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end()
        return
      }
      if (!(req.headers['content-type'] ?? '').includes('json')) {
        res.writeHead(415).end()
        return
      }
      try {
        receiver.spans.push(...decodeTraces(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces))
        receiver.requests++
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      } catch {
        res.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}
