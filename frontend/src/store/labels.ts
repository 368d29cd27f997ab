import { toApiError, type Api, type ApiError } from '../api/api'
import type { LabelFilter, Labels } from '../lib/evals'
import type { LoadStatus } from './runs'
import { createStore, type Store } from './store'

export interface LabelsState {
  status: LoadStatus
  /** The labels of the labelled runs, by run id. */
  byRun: Labels
  /** The runs list shows the runs with this label only ('' all). */
  filter: LabelFilter
  /** Why the labels could not be read or the last one not kept. */
  error: ApiError | null
}

export interface LabelsStore extends Store<LabelsState> {
  load(): Promise<void>
  /** mark marks a run good or bad with a note ('' takes the label away), and says whether it was kept. */
  mark(runId: string, label: string, note: string): Promise<boolean>
  setFilter(filter: LabelFilter): void
}

/** createLabelsStore keeps the labels people gave runs (PUT /api/runs/{id}/label), for the runs list and the run page. */
export function createLabelsStore(api: Api): LabelsStore {
  const store = createStore<LabelsState>({ status: 'idle', byRun: {}, filter: '', error: null })
  let ticket = 0
  return {
    ...store,
    async load() {
      const mine = ++ticket
      store.set({ status: 'loading' })
      try {
        const byRun = await api.labels()
        if (mine === ticket) store.set({ status: 'ready', byRun, error: null })
      } catch (err) {
        if (mine === ticket) store.set({ status: 'error', error: toApiError(err) })
      }
    },
    async mark(runId, label, note) {
      try {
        await api.setLabel(runId, label, note)
      } catch (err) {
        store.set({ error: toApiError(err) })
        return false
      }
      ticket++ // a load under way read the labels before this one
      store.set((s) => {
        const byRun = { ...s.byRun }
        if (label) byRun[runId] = { label, note, updated: new Date().toISOString() }
        else delete byRun[runId]
        return { byRun, error: null }
      })
      return true
    },
    setFilter: (filter) => store.set({ filter }),
  }
}
