import { context, propagation, trace } from '@opentelemetry/api'
import { type Static, Type } from '@sinclair/typebox'
import { setTracingActive } from '@switchboard/events'
import { parseConfig } from './config.ts'

/**
 * `monitoring.tracing` (the spec: "Tracing spans go to an OTLP collector when monitoring.tracing.enabled is true").
 * From the environment: `TRACING_ENABLED`, else the standard `OTEL_*` variables (an OTLP endpoint given with
 * `OTEL_TRACES_EXPORTER=otlp` turns it on too; `OTEL_SDK_DISABLED=true` keeps it off whatever else says).
 */
export const TracingConfig = Type.Object({
  enabled: Type.Boolean({ default: false }),
  /** share of traces kept where a trace starts (the gateway, a background publish); children follow their parent */
  sample_ratio: Type.Number({ minimum: 0, maximum: 1, default: 0.1 }),
  /** OTLP/HTTP (JSON) traces endpoint, the full URL (`…/v1/traces`) */
  endpoint: Type.String({ minLength: 1, default: 'http://127.0.0.1:4318/v1/traces' }),
  /** `service.name` of the spans; the unit's name unless OTEL_SERVICE_NAME says otherwise */
  service_name: Type.String({ minLength: 1 }),
  /** extra headers of the export request (OTEL_EXPORTER_OTLP_HEADERS: `k=v,k2=v2`) */
  headers: Type.Record(Type.String(), Type.String(), { default: {} }),
})
export type TracingConfig = Static<typeof TracingConfig>

const truthy = (v: string | undefined) => v !== undefined && /^(true|1|on|yes)$/i.test(v.trim())

function parseHeaders(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of (v ?? '').split(',')) {
    const eq = pair.indexOf('=')
    if (eq > 0) out[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim())
  }
  return out
}

/** Reads `monitoring.tracing` from the environment (see README "Configuration"); `unit` names the spans' service. */
export function tracingConfigFromEnv(env: NodeJS.ProcessEnv, unit: string): TracingConfig {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '')
  const enabled =
    !truthy(env.OTEL_SDK_DISABLED) &&
    (env.TRACING_ENABLED !== undefined
      ? truthy(env.TRACING_ENABLED)
      : env.OTEL_TRACES_EXPORTER?.split(',').some((e) => e.trim() === 'otlp') === true && Boolean(traces || base))
  return parseConfig(TracingConfig, {
    enabled,
    sample_ratio: env.OTEL_TRACES_SAMPLER_ARG ?? env.TRACING_SAMPLE_RATIO,
    endpoint: traces ?? (base ? `${base}/v1/traces` : undefined),
    service_name: env.OTEL_SERVICE_NAME ?? unit,
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS),
  })
}

export interface Tracing {
  /** exports what is still buffered */
  flush(): Promise<void>
  /** flushes, then turns the process's tracing off again (the API is a no-op after it) */
  shutdown(): Promise<void>
}

const OFF: Tracing = { flush: async () => {}, shutdown: async () => {} }
let current: Tracing | undefined

/**
 * Turns tracing on for this process, once (a second call gets the first's handle): a tracer provider with a
 * parent-based ratio sampler, a batching OTLP/HTTP exporter, the AsyncLocalStorage context manager and the W3C
 * propagator. Off, it loads nothing: the SDK is imported only here, and `@opentelemetry/api` stays its no-op, so
 * neither the HTTP hooks, the query wrapper nor the bus wrapper are installed (`tracingActive()` is false).
 * Called before any unit is built: by `runService` (each process of the fleet) and by the embedded runner.
 */
export async function startTracing(config: TracingConfig): Promise<Tracing> {
  if (!config.enabled) return OFF
  if (current) return current
  const [{ NodeTracerProvider }, base, { OTLPTraceExporter }, { resourceFromAttributes }, semconv] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ])
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: config.service_name }),
    sampler: new base.ParentBasedSampler({ root: new base.TraceIdRatioBasedSampler(config.sample_ratio) }),
    spanProcessors: [
      new base.BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint, headers: config.headers }), {
        scheduledDelayMillis: 1000,
      }),
    ],
  })
  provider.register()
  setTracingActive(true)
  const handle: Tracing = {
    flush: () => provider.forceFlush(),
    async shutdown() {
      if (current !== handle) return
      current = undefined
      setTracingActive(false)
      await provider.shutdown().catch(() => {})
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
  current = handle
  return handle
}
