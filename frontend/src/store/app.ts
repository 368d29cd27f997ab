import { toApiError, type Api, type ApiError } from '../api/api'
import type { ModelCheck, ModelCheckRequest, Settings, StartRunRequest } from '../api/types'
import { detectLang, type Lang } from '../i18n/i18n'
import { createClusterStore, type ClusterStore } from './cluster'
import { createLabelsStore, type LabelsStore } from './labels'
import { createMemoryStore, type MemoryStore } from './memory'
import { createNoticesStore, timeoutLater, type Later, type NoticesStore } from './notices'
import { createRunStore, intervalTicker, type Frame, type RunStore, type Ticker } from './run'
import { createRunsStore, type LoadStatus, type RunsStore } from './runs'
import { createStore, type Store } from './store'

export type Theme = 'system' | 'light' | 'dark'
export type { LoadStatus } from './runs'

export interface SettingsState {
  status: LoadStatus
  value: Settings | null
  error: ApiError | null
}

export interface AppState {
  lang: Lang
  theme: Theme
  settings: SettingsState
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
  ticker?: Ticker
  later?: Later
  /** frame paces how often a live run's events are folded (see run.ts). */
  frame?: Frame
}

export interface AppStore extends Store<AppState> {
  runs: RunsStore
  run: RunStore
  memory: MemoryStore
  notices: NoticesStore
  cluster: ClusterStore
  labels: LabelsStore
  /** start settles the language, loads the runs list and follows live runs. */
  start(): Promise<void>
  setLang(lang: Lang): void
  setTheme(theme: Theme): void
  loadSettings(): Promise<void>
  /** setVault writes [obsidian] vault into hermes.toml and shows the settings then; it rejects with why it was refused. */
  setVault(vault: string): Promise<void>
  checkModel(req: ModelCheckRequest): Promise<ModelCheck>
  /** startRun starts a run and resolves with its id. */
  startRun(req: StartRunRequest): Promise<string>
  artifact: Api['artifact']
  /** runEvents reads another run's events, as a fork's page does its source's. */
  runEvents: Api['runEvents']
  /** The Evals page's and the test case's calls (docs/evals.md). */
  evals: Api['evals']
  evalDetail: Api['evalDetail']
  runCase: Api['runCase']
  saveCase: Api['saveCase']
}

const langKey = 'hermes.lang'
const themeKey = 'hermes.theme'

function readTheme(storage: KeyValue | null): Theme {
  const v = storage?.getItem(themeKey)
  return v === 'light' || v === 'dark' ? v : 'system'
}

/** createAppStore builds the UI's state and its actions around an Api. */
export function createAppStore({ api, storage, browserLanguages, ticker = intervalTicker, later = timeoutLater, frame }: AppDeps): AppStore {
  const store = createStore<AppState>({
    lang: detectLang(storage?.getItem(langKey), '', browserLanguages),
    theme: readTheme(storage),
    settings: { status: 'idle', value: null, error: null },
  })
  const runs = createRunsStore(api)
  const run = createRunStore(api, ticker, frame)
  const memory = createMemoryStore(api)
  const notices = createNoticesStore(api, later)
  const cluster = createClusterStore(api, ticker)
  const labels = createLabelsStore(api)

  async function start(): Promise<void> {
    runs.watch()
    const loaded = runs.load()
    void notices.start()
    if (!storage?.getItem(langKey)) {
      try {
        const backend = await api.language()
        store.set({ lang: detectLang(null, backend, browserLanguages) })
      } catch {
        // The language is a preference: without the backend's, the browser's stands.
      }
    }
    await loaded
  }

  return {
    ...store,
    runs,
    run,
    memory,
    notices,
    cluster,
    labels,
    start,
    setLang(lang) {
      storage?.setItem(langKey, lang)
      store.set({ lang })
    },
    setTheme(theme) {
      storage?.setItem(themeKey, theme)
      store.set({ theme })
    },
    async loadSettings() {
      store.set((s) => ({ settings: { ...s.settings, status: 'loading', error: null } }))
      try {
        const value = await api.settings()
        store.set({ settings: { status: 'ready', value, error: null } })
      } catch (err) {
        store.set((s) => ({ settings: { ...s.settings, status: 'error', error: toApiError(err) } }))
      }
    },
    async setVault(vault) {
      const value = await api.setVault(vault)
      store.set({ settings: { status: 'ready', value, error: null } })
    },
    async checkModel(req) {
      try {
        return await api.checkModel(req)
      } catch (err) {
        const e = toApiError(err)
        return { ok: false, key_sent: false, error: { code: e.code, message: { en: e.messageIn('en'), 'zh-CN': e.messageIn('zh-CN') } } }
      }
    },
    startRun: (req) => api.startRun(req),
    artifact: (runId, ref, offset, limit) => api.artifact(runId, ref, offset, limit),
    runEvents: (runId) => api.runEvents(runId),
    evals: () => api.evals(),
    evalDetail: (id) => api.evalDetail(id),
    runCase: (runId) => api.runCase(runId),
    saveCase: (runId, req) => api.saveCase(runId, req),
  }
}
