/** How often the reminder repeats while someone waits in the queue (ms). */
export const REMINDER_MS = 60_000
