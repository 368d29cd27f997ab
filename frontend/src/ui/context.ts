import { createContext, useContext, useSyncExternalStore } from 'react'
import { translator, type Translate } from '../i18n/i18n'
import type { AppState, AppStore } from '../store/app'

export const StoreContext = createContext<AppStore | null>(null)

export function useAppStore(): AppStore {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useAppStore outside StoreContext')
  return store
}

/** useAppState subscribes to the part of the state that select picks. */
export function useAppState<T>(select: (s: AppState) => T): T {
  const store = useAppStore()
  return useSyncExternalStore(store.subscribe, () => select(store.get()))
}

/** useT is the translator of the current language. */
export function useT(): Translate {
  const lang = useAppState((s) => s.lang)
  return translator(lang)
}
