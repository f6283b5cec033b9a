/** How long a gap in a conversation's seqs may stay open before the resume point passes over it. */
export const GAP_GIVE_UP_MS = 30_000

/**
 * Where a client's rejoin of a conversation resumes (`after` of the hub's join frame; the console's hub and the
 * widget's chat store keep one per conversation; a pure module, imported by its file so a bundle takes it alone):
 * the newest message held with no gap before it.
 * Frames can arrive out of order (two replicas publish one session's events; seen up to 3.6 s late under load), and
 * resuming after the newest would lose one still on its way when the socket dropped. A gap that stays open
 * `GAP_GIVE_UP_MS` is taken as a seq this client is never sent (an internal note, for a visitor), and passed over.
 */
export class ResumePoint {
  /** the message to resume after; before the first frame, the one the view's history ended with */
  after: string | null
  /** its seq; -1 before the first frame (the history's seq is not known) */
  private seq = -1
  /** messages held past a gap, by seq, with when they came */
  private readonly ahead = new Map<number, { id: string; at: number }>()

  constructor(after: string | null) {
    this.after = after
  }

  note(messageId: string, seq: number, now: number): void {
    if (seq <= this.seq) return
    if (this.seq < 0 || seq === this.seq + 1) {
      this.seq = seq
      this.after = messageId
    } else this.ahead.set(seq, { id: messageId, at: now })
    for (;;) {
      const next = this.ahead.get(this.seq + 1)
      if (next) {
        this.ahead.delete(this.seq + 1)
        this.seq++
        this.after = next.id
        continue
      }
      // the oldest message past the gap has waited long enough: the gap will not fill
      const lowest = Math.min(...this.ahead.keys())
      const waited = this.ahead.get(lowest)
      if (!waited || now - waited.at < GAP_GIVE_UP_MS) return
      this.seq = lowest - 1
    }
  }
}
