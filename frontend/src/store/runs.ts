import { toApiError, type Api, type ApiError } from '../api/api'
import type { RunSummary } from '../api/types'
import { indexRuns, noFilter, removeRun, upsertRun, type RunFilter, type RunIndex } from '../lib/runs'
import { createStore, type Store } from './store'

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface RunsState {
  status: LoadStatus
  index: RunIndex
  error: ApiError | null
  filter: RunFilter
  /** The last rename or delete that failed, to show beside the list. */
  actionError: ApiError | null
}

export interface RunsStore extends Store<RunsState> {
  load(): Promise<void>
  /** watch follows live runs until the returned function is called. */
  watch(): () => void
  setFilter(filter: Partial<RunFilter>): void
  rename(runId: string, title: string): Promise<boolean>
  remove(runId: string): Promise<boolean>
}

/** createRunsStore keeps the runs list: loaded once, then kept current by the live stream. */
export function createRunsStore(api: Api): RunsStore {
  const store = createStore<RunsState>({ status: 'idle', index: indexRuns([]), error: null, filter: noFilter, actionError: null })
  // Each load takes a ticket; a reply to an older ticket is stale and dropped,
  // so a slow answer never overwrites a newer one.
  let ticket = 0
  // Summaries that arrive while a load is under way are kept and laid over
  // its answer, which may be older than they are.
  let arrived: RunSummary[] = []

  const upsert = (run: RunSummary) => {
    if (store.get().status === 'loading') arrived.push(run)
    store.set((s) => ({ index: upsertRun(s.index, run) }))
  }

  async function act(fn: () => Promise<void>): Promise<boolean> {
    try {
      await fn()
      store.set({ actionError: null })
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
      arrived = []
      store.set({ status: 'loading', error: null })
      try {
        const runs = await api.listRuns()
        if (mine !== ticket) return
        let index = indexRuns(runs)
        for (const r of arrived) index = upsertRun(index, r)
        store.set({ status: 'ready', index, error: null })
      } catch (err) {
        if (mine !== ticket) return
        store.set({ status: 'error', error: toApiError(err) })
      }
    },
    watch: () => api.watchRuns(upsert),
    setFilter(filter) {
      store.set((s) => ({ filter: { ...s.filter, ...filter } }))
    },
    rename: (runId, title) =>
      act(async () => {
        await api.renameRun(runId, title)
        const run = store.get().index.byId[runId]
        if (run) store.set((s) => ({ index: upsertRun(s.index, { ...run, title }) }))
      }),
    remove: (runId) =>
      act(async () => {
        await api.deleteRun(runId)
        store.set((s) => ({ index: removeRun(s.index, runId) }))
      }),
  }
}
