import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { pageDrawn } from '../lib/drawn'
import { createLag, shownTimeout, type Source } from '../lib/lag'

/**
 * useLaggedStore subscribes to source's whole state, at once, or while lag
 * holds at most once every `every` ms (createLag): what a live run's page
 * draws twice a second reads it, and so is not drawn again at each fold.
 * A hidden page, or one not drawn, waits to be shown and drawn for its
 * turn (shownTimeout).
 */
export function useLaggedStore<S>(source: Source<S>, every: number, lag: boolean): S {
  const follower = useMemo(() => createLag(source, every, Date.now, shownTimeout(document, pageDrawn)), [source, every])
  const subscribe = useCallback((notify: () => void) => follower.subscribe(notify, lag), [follower, lag])
  return useSyncExternalStore(subscribe, () => follower.snapshot(lag))
}
