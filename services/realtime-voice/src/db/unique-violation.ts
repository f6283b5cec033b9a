/**
 * A unique key refused the insert (PostgreSQL 23505, SQLite's constraint message): two requests raced for the same
 * call, event or active recording, and the other one won. The platform's error handler makes an unhandled one a
 * 409; commands that can answer better (the winner's record) catch it with this.
 */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null
  return e?.code === '23505' || (typeof e?.message === 'string' && e.message.startsWith('UNIQUE constraint failed'))
}
