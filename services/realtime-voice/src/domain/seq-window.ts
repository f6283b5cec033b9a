/**
 * Which messages of one session a socket has been sent, by `seq` (the message's position in its session): every
 * seq ≤ `floor`, plus the few above it that came out of order. Events may reach a replica twice (at-least-once)
 * or out of order (two conversations replicas' relays, clock skew), so "drop anything ≤ the last sent" would lose a
 * late one; this drops exactly what was sent. Pure.
 */
export class SeqWindow {
  /** everything at or below was sent (or lies before what the client asked for); undefined until the first */
  floor: number | undefined
  /** the floor it started from: what lies at or below it was never sent through this window, only taken as had */
  private start: number | undefined
  private readonly above = new Set<number>()
  private readonly maxAbove: number

  /**
   * `floor`: the last seq the client has (a resume, or the session's count when it joined live); undefined for a
   * socket that follows a session from whatever comes next (the first seq offered sets it)
   */
  constructor(floor?: number, maxAbove = 512) {
    this.floor = floor
    this.start = floor
    this.maxAbove = maxAbove
  }

  /** True the first time `seq` is offered (send it), false for a seq already sent (drop it). */
  offer(seq: number): boolean {
    if (this.floor === undefined) {
      this.floor = seq - 1
      this.start = this.floor
    }
    if (seq <= this.floor || this.above.has(seq)) return false
    this.above.add(seq)
    while (this.above.delete(this.floor + 1)) this.floor++
    // Seqs that came early wait above the floor for the gap below them to fill. A gap that never fills (a message
    // lost to this socket, or one it was not meant to get) is given up past the bound rather than memory grown.
    if (this.above.size > this.maxAbove) {
      const lowest = Math.min(...this.above)
      this.above.delete(lowest)
      this.floor = lowest
      while (this.above.delete(this.floor + 1)) this.floor++
    }
    return true
  }

  /** Has `seq` been sent (or does it lie before the resume point)? */
  has(seq: number): boolean {
    return (this.floor !== undefined && seq <= this.floor) || this.above.has(seq)
  }

  /**
   * Was `seq` sent through this window — not merely below where it started? A resume's history skips those: a
   * console following an assigned session got them live on this socket before its join was handled.
   */
  sent(seq: number): boolean {
    return this.start !== undefined && seq > this.start && this.has(seq)
  }
}
