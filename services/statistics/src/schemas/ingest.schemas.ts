import { type Static, Type } from '@sinclair/typebox'
import { MAX_BATCH, METRIC_SOURCES } from '../domain/client-metrics.ts'

// The wire of POST /api/v1/metrics/ingest : a batch of named samples from one client (README "Metrics ingest").

const Label = Type.String({ maxLength: 128 })

export const MetricSample = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'a name of the allow-list; others are dropped' }),
    value: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        description: 'a counter increment (0 or absent: 1), a gauge value',
      }),
    ),
    labels: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Label, {
        maxProperties: 16,
        description: "the client's own labels: taken, not recorded as series labels (README)",
      }),
    ),
  },
  { additionalProperties: false },
)

export const IngestBody = Type.Object(
  {
    source: Type.Union(
      METRIC_SOURCES.map((s) => Type.Literal(s)),
      { description: 'who measured: sdk, admin or agent' },
    ),
    tenant: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'the tenant the samples are of' })),
    session_id: Type.Optional(Type.String({ maxLength: 128 })),
    metrics: Type.Array(MetricSample, { minItems: 1, maxItems: MAX_BATCH }),
  },
  { additionalProperties: false },
)
export type IngestBody = Static<typeof IngestBody>

export const IngestResult = Type.Object({
  success: Type.Literal(true),
  /** samples recorded */
  accepted: Type.Integer(),
  /** samples not recorded (their names are not on the allow-list), each counted in statistics_ingest_dropped_total */
  dropped: Type.Integer(),
  /** the distinct names dropped */
  dropped_names: Type.Array(Type.String()),
})
export type IngestResult = Static<typeof IngestResult>
