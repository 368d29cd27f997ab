import { ApiError, type Api } from '../api/api'
import type { HermesEvent } from '../api/types'
import { detectLang, type Lang } from '../i18n/i18n'
import { orderEvents } from '../lib/events'
import { indexRuns, noFilter, type RunFilter, type RunIndex } from '../lib/runs'
import { emptyRun, foldRun, type RunView } from '../lib/timeline'
import { createStore, type Store } from './store'

export type Theme = 'system' | 'light' | 'dark'
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface RunsState {
  status: LoadStatus
  index: RunIndex
  error: ApiError | null
}

export interface OpenRunState {
  runId: string
  status: LoadStatus
  events: HermesEvent[]
  view: RunView
  error: ApiError | null
}

export interface AppState {
  lang: Lang
  theme: Theme
  runs: RunsState
  filter: RunFilter
  open: OpenRunState
}

/** KeyValue is the part of localStorage the store uses, to remember choices. */
export interface KeyValue {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export interface AppDeps {
  api: Api
  storage: KeyValue | null
  /** navigator.languages, most preferred first. */
  browserLanguages: readonly string[]
}

export interface AppStore extends Store<AppState> {
  /** start settles the language and loads the runs list. */
  start(): Promise<void>
  loadRuns(): Promise<void>
  openRun(runId: string): Promise<void>
  closeRun(): void
  setLang(lang: Lang): void
  setTheme(theme: Theme): void
  setFilter(filter: Partial<RunFilter>): void
}

const langKey = 'hermes.lang'
const themeKey = 'hermes.theme'

const closed: OpenRunState = { runId: '', status: 'idle', events: [], view: emptyRun(), error: null }

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  return new ApiError(err instanceof Error ? err.message : String(err))
}

function readTheme(storage: KeyValue | null): Theme {
  const v = storage?.getItem(themeKey)
  return v === 'light' || v === 'dark' ? v : 'system'
}

/** createAppStore builds the UI's state and its actions around an Api. */
export function createAppStore({ api, storage, browserLanguages }: AppDeps): AppStore {
  const store = createStore<AppState>({
    lang: detectLang(storage?.getItem(langKey), '', browserLanguages),
    theme: readTheme(storage),
    runs: { status: 'idle', index: indexRuns([]), error: null },
    filter: noFilter,
    open: closed,
  })
  // Each load takes a ticket; a reply to an older ticket is stale and dropped,
  // so a slow answer never overwrites a newer one.
  let runsTicket = 0
  let openTicket = 0

  async function loadRuns(): Promise<void> {
    const ticket = ++runsTicket
    store.set((s) => ({ runs: { ...s.runs, status: 'loading', error: null } }))
    try {
      const runs = await api.listRuns()
      if (ticket !== runsTicket) return
      store.set({ runs: { status: 'ready', index: indexRuns(runs), error: null } })
    } catch (err) {
      if (ticket !== runsTicket) return
      store.set((s) => ({ runs: { ...s.runs, status: 'error', error: toApiError(err) } }))
    }
  }

  async function openRun(runId: string): Promise<void> {
    const ticket = ++openTicket
    store.set({ open: { ...closed, runId, status: 'loading', view: emptyRun(runId) } })
    try {
      const events = orderEvents(await api.runEvents(runId))
      if (ticket !== openTicket) return
      store.set({ open: { runId, status: 'ready', events, view: foldRun(events, runId), error: null } })
    } catch (err) {
      if (ticket !== openTicket) return
      store.set((s) => ({ open: { ...s.open, status: 'error', error: toApiError(err) } }))
    }
  }

  async function start(): Promise<void> {
    const runs = loadRuns()
    if (!storage?.getItem(langKey)) {
      try {
        const backend = await api.language()
        store.set({ lang: detectLang(null, backend, browserLanguages) })
      } catch {
        // The language is a preference: without the backend's, the browser's stands.
      }
    }
    await runs
  }

  return {
    ...store,
    start,
    loadRuns,
    openRun,
    closeRun() {
      openTicket++
      store.set({ open: closed })
    },
    setLang(lang) {
      storage?.setItem(langKey, lang)
      store.set({ lang })
    },
    setTheme(theme) {
      storage?.setItem(themeKey, theme)
      store.set({ theme })
    },
    setFilter(filter) {
      store.set((s) => ({ filter: { ...s.filter, ...filter } }))
    },
  }
}
