const DAY_MS = 86_400_000

/** Records created strictly before this instant are past retention; one exactly at it stays. */
export const retentionCutoff = (now: Date, days: number): string =>
  new Date(now.getTime() - days * DAY_MS).toISOString()
