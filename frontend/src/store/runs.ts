import { toApiError, type Api, type ApiError } from '../api/api'
import type { RunSummary } from '../api/types'
import { addRuns, indexRuns, noFilter, removeRun, upsertRun, type RunFilter, type RunIndex } from '../lib/runs'
import { createStore, type Store } from './store'

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface RunsState {
  status: LoadStatus
  index: RunIndex
  error: ApiError | null
  filter: RunFilter
  /** The last rename or delete that failed, to show beside the list. */
  actionError: ApiError | null
  /** The cursor of the next page of older runs; "" when all are loaded. */
  next: string
  loadingMore: boolean
  /** The list holds only the runs labelled so ('good' or 'bad'; '' all), as the server chose them. */
  label: string
}

/** runsPageSize is how many runs a page of the list loads. */
export const runsPageSize = 50

export interface RunsStore extends Store<RunsState> {
  /** load loads the first page of runs, the newest. */
  load(): Promise<void>
  /** more loads the next page of older runs, if there is one. */
  more(): Promise<void>
  /** watch follows live runs until the returned function is called. */
  watch(): () => void
  setFilter(filter: Partial<RunFilter>): void
  /** setLabel lists only the runs labelled label ('good' or 'bad'; '' all), asked of the server, which keeps the labels: a labelled run far down the list is found without loading the runs above it. */
  setLabel(label: string): Promise<void>
  rename(runId: string, title: string): Promise<boolean>
  remove(runId: string): Promise<boolean>
}

/**
 * createRunsStore keeps the runs list: the newest page loaded first, older
 * pages as the list is scrolled, kept current by the live stream.
 */
export function createRunsStore(api: Api): RunsStore {
  const store = createStore<RunsState>({
    status: 'idle',
    index: indexRuns([]),
    error: null,
    filter: noFilter,
    actionError: null,
    next: '',
    loadingMore: false,
    label: '',
  })
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

  const page = (before: string) => {
    const { label } = store.get()
    return label ? api.listRunsPage(before, runsPageSize, label) : api.listRunsPage(before, runsPageSize)
  }

  const runs: RunsStore = {
    ...store,
    async load() {
      const mine = ++ticket
      arrived = []
      store.set({ status: 'loading', error: null })
      try {
        const page1 = await page('')
        if (mine !== ticket) return
        let index = indexRuns(page1.runs)
        for (const r of arrived) index = upsertRun(index, r)
        store.set({ status: 'ready', index, error: null, next: page1.next, loadingMore: false })
      } catch (err) {
        if (mine !== ticket) return
        store.set({ status: 'error', error: toApiError(err) })
      }
    },
    async more() {
      const { next, loadingMore, status } = store.get()
      if (!next || loadingMore || status !== 'ready') return
      const mine = ticket
      store.set({ loadingMore: true })
      try {
        const more = await page(next)
        // A reload since began the list again; this page belongs to the old one.
        if (mine !== ticket) return
        store.set((s) => ({ index: addRuns(s.index, more.runs), next: more.next, loadingMore: false }))
      } catch (err) {
        if (mine !== ticket) return
        store.set({ loadingMore: false, actionError: toApiError(err) })
      }
    },
    watch: () => api.watchRuns(upsert),
    setFilter(filter) {
      store.set((s) => ({ filter: { ...s.filter, ...filter } }))
    },
    async setLabel(label) {
      if (label === store.get().label) return
      // The list begins again: what it held is another list's.
      store.set({ label, index: indexRuns([]), next: '' })
      await runs.load()
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
  return runs
}
