/**
 * Means are returned to the millisecond (seconds) or the thousandth of a star: what a dashboard shows, and equal on
 * both engines (SQLite's julianday arithmetic is not exact below a millisecond).
 */
export const rounded = (value: number) => Math.round(value * 1000) / 1000
