// cli-progress ships no types; this is the slice of its API the CLI uses.
declare module 'cli-progress' {
  interface BarOptions {
    format?: string
    stream?: NodeJS.WritableStream
    hideCursor?: boolean
    clearOnComplete?: boolean
    noTTYOutput?: boolean
    notTTYSchedule?: number
  }
  export class SingleBar {
    constructor(options: BarOptions, preset?: unknown)
    start(total: number, startValue: number, payload?: Record<string, unknown>): void
    update(value: number, payload?: Record<string, unknown>): void
    setTotal(total: number): void
    stop(): void
  }
  export const Presets: { shades_classic: unknown; shades_grey: unknown; legacy: unknown; rect: unknown }
  const cliProgress: { SingleBar: typeof SingleBar; Presets: typeof Presets }
  export default cliProgress
}
