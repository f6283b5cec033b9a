import { Type } from '@sinclair/typebox'
import { errorResponses, type RouteModule } from '@switchboard/platform'
import type { StatisticsService } from '../context.ts'

const ProjectionLag = Type.Object({
  projection: Type.String(),
  stream: Type.String(),
  lag_seconds: Type.Number(),
  pending: Type.Boolean(),
  rebuilding: Type.Boolean(),
  applied_seq: Type.Union([Type.Integer(), Type.Null()]),
  applied_occurred_at: Type.Union([Type.String(), Type.Null()]),
})

/** How far each read model is behind its stream (README "Projection lag"); system level, the same for every scope. */
export const lagRoutes: RouteModule<StatisticsService> = async (app, svc) => {
  app.get(
    '/api/statistics/lag',
    {
      schema: {
        response: {
          200: Type.Object({ caught_up: Type.Boolean(), projections: Type.Array(ProjectionLag) }),
          ...errorResponses(401),
        },
      },
    },
    async () => {
      const projections = await svc.lag.read()
      return { caught_up: projections.every((p) => !p.pending && !p.rebuilding), projections }
    },
  )
}
