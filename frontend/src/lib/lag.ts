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

/** Source is what a lagging view follows: a store's state and its changes. */
export interface Source<S> {
  get(): S
  subscribe(listener: () => void): () => void
}

/** Lag follows a source as lagged does, for useSyncExternalStore: snapshot is what to show, subscribe when to look again. */
export interface Lag<S> {
  snapshot(lag: boolean): S
  subscribe(notify: () => void, lag: boolean): () => void
}

/** Timer calls fn once, ms milliseconds on, unless the function it returns calls it off first. */
export type Timer = (fn: () => void, ms: number) => () => void

const timeout: Timer = (fn, ms) => {
  const id = setTimeout(fn, ms)
  return () => clearTimeout(id)
}

/**
 * drawnTimeout waits ms, then for the page's next animation frame: what a
 * page draws late is then drawn when the page is, and a page not drawn (a
 * hidden tab, a page behind another) does none of that work until it is
 * drawn again, leaving the cores to the page in front.
 */
export function drawnTimeout(frame: (fn: () => void) => number, cancelFrame: (id: number) => void): Timer {
  return (fn, ms) => {
    let asked = 0
    const id = setTimeout(() => (asked = frame(fn)), ms)
    return () => {
      clearTimeout(id)
      if (asked) cancelFrame(asked)
    }
  }
}

/**
 * createLag follows source's state at once, or, while lag holds, at most
 * once every `every` ms: a live run's page shell subscribes through it, so
 * the events of a run redraw it twice a second, not at each fold. While
 * lagging, the changes in a period wake it once, when its turn comes.
 */
export function createLag<S>(source: Source<S>, every: number, clock: () => number = Date.now, timer: Timer = timeout): Lag<S> {
  let shown: Shown<S> = { v: source.get(), at: 0 }
  return {
    snapshot(lag) {
      shown = lagged(shown, source.get(), clock(), every, lag)
      return shown.v
    },
    subscribe(notify, lag) {
      if (!lag) return source.subscribe(notify)
      let cancel: (() => void) | null = null
      // A timer that fired early waits again rather than lose the change.
      const fire = () => {
        const wait = lagDue(shown, clock(), every)
        cancel = wait > 0 ? timer(fire, wait) : null
        if (wait === 0) notify()
      }
      const off = source.subscribe(() => {
        if (cancel === null) cancel = timer(fire, lagDue(shown, clock(), every))
      })
      return () => {
        off()
        cancel?.()
      }
    },
  }
}
