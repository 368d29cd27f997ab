import { toApiError, type Api, type ApiError } from '../api/api'
import type { MemoryEntry } from '../api/types'
import { filterMemories } from '../lib/memory'
import type { LoadStatus } from './runs'
import { createStore, type Store } from './store'

export interface MemoryState {
  status: LoadStatus
  entries: MemoryEntry[]
  error: ApiError | null
  query: string
  /** A kind to show only, or "" for all. */
  kind: string
  /** The last pin or forget that failed. */
  actionError: ApiError | null
}

export interface MemoryStore extends Store<MemoryState> {
  load(): Promise<void>
  setQuery(query: string): void
  setKind(kind: string): void
  /** shown are the entries the search and the kind let through, newest first. */
  shown(): MemoryEntry[]
  pin(id: number, pinned: boolean): Promise<boolean>
  forget(id: number): Promise<boolean>
}

/** memoryListLimit is how many memories the page lists; search filters within them. */
export const memoryListLimit = 500

/** createMemoryStore holds the long-term memory page: the entries, the search, and pin and forget. */
export function createMemoryStore(api: Api): MemoryStore {
  const store = createStore<MemoryState>({ status: 'idle', entries: [], error: null, query: '', kind: '', actionError: null })
  let ticket = 0

  async function act(fn: () => Promise<void>, apply: (entries: MemoryEntry[]) => MemoryEntry[]): Promise<boolean> {
    store.set({ actionError: null })
    try {
      await fn()
      store.set((s) => ({ entries: apply(s.entries) }))
      return true
    } catch (err) {
      store.set({ actionError: toApiError(err) })
      return false
    }
  }

  return {
    ...store,
    async load() {
      const mine = ++ticket
      store.set({ status: store.get().entries.length > 0 ? 'ready' : 'loading', error: null })
      try {
        const entries = await api.memories(memoryListLimit)
        if (mine === ticket) store.set({ status: 'ready', entries })
      } catch (err) {
        if (mine === ticket) store.set({ status: 'error', error: toApiError(err) })
      }
    },
    setQuery: (query) => store.set({ query }),
    setKind: (kind) => store.set({ kind }),
    shown() {
      const s = store.get()
      return filterMemories(s.entries, s.query, s.kind)
    },
    pin: (id, pinned) =>
      act(
        () => api.pinMemory(id, pinned),
        (entries) => entries.map((e) => (e.id === id ? { ...e, pinned } : e)),
      ),
    forget: (id) =>
      act(
        () => api.forgetMemory(id),
        (entries) => entries.filter((e) => e.id !== id),
      ),
  }
}
