import { createContext, useContext, useSyncExternalStore } from 'react'
import { translator, type Translate } from '../i18n/i18n'
import type { AppState, AppStore } from '../store/app'
import type { ClusterState } from '../store/cluster'
import type { LabelsState } from '../store/labels'
import type { MemoryState } from '../store/memory'
import type { NoticesState } from '../store/notices'
import type { RunState } from '../store/run'
import type { RunsState } from '../store/runs'
import type { Store } from '../store/store'

export const StoreContext = createContext<AppStore | null>(null)

export function useAppStore(): AppStore {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useAppStore outside StoreContext')
  return store
}

function useSlice<S, T>(store: Store<S>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()))
}

/** useAppState subscribes to the part of the app's state that select picks. */
export function useAppState<T>(select: (s: AppState) => T): T {
  return useSlice(useAppStore(), select)
}

/** useRunsState subscribes to the runs list. */
export function useRunsState<T>(select: (s: RunsState) => T): T {
  return useSlice(useAppStore().runs, select)
}

/** useRunState subscribes to the open run. */
export function useRunState<T>(select: (s: RunState) => T): T {
  return useSlice(useAppStore().run, select)
}

/** useMemoryState subscribes to the long-term memory page. */
export function useMemoryState<T>(select: (s: MemoryState) => T): T {
  return useSlice(useAppStore().memory, select)
}

/** useNoticesState subscribes to the notices. */
export function useNoticesState<T>(select: (s: NoticesState) => T): T {
  return useSlice(useAppStore().notices, select)
}

/** useClusterState subscribes to the Cluster view. */
export function useClusterState<T>(select: (s: ClusterState) => T): T {
  return useSlice(useAppStore().cluster, select)
}

/** useLabelsState subscribes to the runs' labels. */
export function useLabelsState<T>(select: (s: LabelsState) => T): T {
  return useSlice(useAppStore().labels, select)
}

/** useT is the translator of the current language. */
export function useT(): Translate {
  const lang = useAppState((s) => s.lang)
  return translator(lang)
}
