import { useEffect, useReducer, useRef } from 'react'
import { lagDue, lagged, type Shown } from '../lib/lag'

/**
 * useLagging follows value at once, or, while lag holds, at most once every
 * `every` ms (the newest value, once its turn comes): for a view that need not
 * be redrawn for each event of a live run.
 */
export function useLagging<T>(value: T, every: number, lag: boolean): T {
  const shown = useRef<Shown<T>>({ v: value, at: 0 })
  const [woke, wake] = useReducer((n: number) => n + 1, 0)
  shown.current = lagged(shown.current, value, Date.now(), every, lag)
  const behind = shown.current.v !== value
  // One timer while behind, however many values come meanwhile: set again
  // for each, it was a timer and an effect to run at every event of a live
  // run. Woke is a dependency: a timer that fired a little early sets another.
  useEffect(() => {
    if (!behind) return
    const id = setTimeout(wake, lagDue(shown.current, Date.now(), every))
    return () => clearTimeout(id)
  }, [behind, every, woke])
  return shown.current.v
}
