import type { Drawn } from './drawn'

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

/** Visibility is what shownTimeout reads of the page: whether it is hidden, and when that changes. */
export type Visibility = Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>

/**
 * shownTimeout waits ms, and then, while the page is hidden (a tab behind
 * another, a minimised window) or not drawn (a page behind another that
 * gets a frame a second: pageDrawn), until it is shown and drawn: such a
 * page does not draw again what no one sees, and leaves the cores to the
 * page in front.
 */
export function shownTimeout(page: Visibility, drawn: Pick<Drawn, 'now' | 'onDrawn'> = alwaysDrawn): Timer {
  return (fn, ms) => {
    let unlisten = () => {}
    const id = setTimeout(() => {
      const ready = () => page.visibilityState !== 'hidden' && drawn.now()
      if (ready()) return fn()
      const onChange = () => {
        if (!ready()) return
        unlisten()
        fn()
      }
      page.addEventListener('visibilitychange', onChange)
      const offDrawn = drawn.onDrawn(onChange)
      unlisten = () => {
        page.removeEventListener('visibilitychange', onChange)
        offDrawn()
      }
    }, ms)
    return () => {
      clearTimeout(id)
      unlisten()
    }
  }
}

const alwaysDrawn: Pick<Drawn, 'now' | 'onDrawn'> = { now: () => true, onDrawn: () => () => {} }

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
