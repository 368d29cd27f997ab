/**
 * Store is a small observable state container. State is replaced, never
 * mutated, so React can read it with useSyncExternalStore and tests can read
 * it without a DOM.
 */
// Its functions are properties, not methods: none uses this, and
// useSyncExternalStore is handed store.subscribe on its own.
export interface Store<S> {
  get: () => S
  set: (update: Partial<S> | ((s: S) => Partial<S>)) => void
  subscribe: (listener: () => void) => () => void
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update
      state = { ...state, ...patch }
      for (const l of [...listeners]) l()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
