/** Shown is what a lagging view shows, and when it was shown (0: not while lagging). */
export interface Shown<T> {
  v: T
  at: number
}

/**
 * lagged says what a view that follows value shows at now: while lag holds,
 * a new value at most once every `every` ms (the newest, once its turn
 * comes); otherwise value at once. A live run's inspector follows the last
 * iteration this way: drawn for every event, it cost each page more than the
 * new card did.
 */
export function lagged<T>(prev: Shown<T>, value: T, now: number, every: number, lag: boolean): Shown<T> {
  if (!lag) return prev.v === value && prev.at === 0 ? prev : { v: value, at: 0 }
  if (prev.v === value || now - prev.at < every) return prev
  return { v: value, at: now }
}

/** lagDue is how long until a lagging view may show a new value. */
export function lagDue<T>(shown: Shown<T>, now: number, every: number): number {
  return Math.max(0, shown.at + every - now)
}
