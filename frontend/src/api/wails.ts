import type { Api } from './api'
import { ApiError } from './api'
import { noCluster } from '../lib/cluster'
import { pageOf } from '../lib/runs'
import type { EvalDetail, EvalRow, Labels } from '../lib/evals'
import type {
  ApiErrorBody,
  ApprovalAnswer,
  CaseProposal,
  CaseRequest,
  CaseSaved,
  ClusterStatus,
  ContextPreview,
  ControlRequest,
  ForkRequest,
  HermesEvent,
  MemoryEntry,
  ModelCheck,
  ModelCheckRequest,
  Notice,
  ResumeRequest,
  RunPage,
  RunSummary,
  Settings,
  StartRunRequest,
  VaultEdit,
  VaultNote,
} from './types'

/** The methods app.App binds into the window (docs/api.md, "Inside the window"). */
export interface AppBindings {
  ListRuns(): Promise<RunSummary[] | null>
  ListRunsPage?(before: string, limit: number, label: string): Promise<Partial<RunPage> | null>
  RunEvents(runId: string): Promise<HermesEvent[] | null>
  Language(): Promise<string>
  StartRun?(req: StartRunRequest): Promise<unknown>
  Control?(runId: string, req: ControlRequest): Promise<void>
  Approve?(runId: string, approvalId: string, answer: ApprovalAnswer): Promise<void>
  ResumeRun?(runId: string, req: ResumeRequest): Promise<unknown>
  ForkRun?(runId: string, req: ForkRequest): Promise<unknown>
  RenameRun?(runId: string, title: string): Promise<void>
  DeleteRun?(runId: string): Promise<void>
  Artifact?(runId: string, ref: string, offset: number, limit: number): Promise<unknown>
  Settings?(): Promise<Settings>
  SetVault?(vault: string): Promise<Settings>
  CheckModel?(req: ModelCheckRequest): Promise<ModelCheck>
  ContextPreview?(runId: string): Promise<ContextPreview>
  VaultEdit?(runId: string, callId: string): Promise<VaultEdit>
  UndoVaultEdit?(runId: string, callId: string): Promise<VaultEdit>
  VaultNote?(runId: string, name: string, from: string): Promise<VaultNote>
  Memories?(limit: number): Promise<MemoryEntry[] | null>
  PinMemory?(id: number, pinned: boolean): Promise<void>
  ForgetMemory?(id: number): Promise<void>
  Notices?(): Promise<Notice[] | null>
  InstallUpdate?(): Promise<void>
  ClusterStatus?(): Promise<ClusterStatus>
  Evals?(): Promise<EvalRow[] | null>
  Eval?(id: string): Promise<EvalDetail>
  Labels?(): Promise<Labels | null>
  SetLabel?(runId: string, label: string, note: string): Promise<void>
  RunCase?(runId: string): Promise<CaseProposal>
  SaveCase?(runId: string, req: CaseRequest): Promise<CaseSaved>
  WatchRun?(watchId: string, runId: string, after: number): Promise<void>
  UnwatchRun?(watchId: string): Promise<void>
}

/** What one watch of a run sends on hermes:watch:ID: a batch of its events, then the end of its leg. */
interface WatchMessage {
  events?: HermesEvent[] | null
  end?: boolean
}

/** The part of the Wails runtime the UI uses: events from Go. */
export interface WailsRuntime {
  EventsOn(name: string, callback: (...data: unknown[]) => void): () => void
}

export interface WailsWindow {
  go?: { app?: { App?: AppBindings } }
  runtime?: WailsRuntime
}

/** wailsBindings returns the bound App when the page runs inside the desktop window. */
export function wailsBindings(win: WailsWindow): AppBindings | undefined {
  return win.go?.app?.App
}

/** createWailsApi calls the Go methods bound by Wails and listens to its events. */
export function createWailsApi(win: WailsWindow): Api {
  const app = (): AppBindings => {
    const b = wailsBindings(win)
    if (!b) throw new ApiError('the desktop bindings are not loaded; restart Hermes')
    return b
  }
  const method = <K extends keyof AppBindings>(name: K): NonNullable<AppBindings[K]> => {
    const fn = app()[name]
    if (!fn) throw new ApiError(`this build of Hermes has no ${String(name)}; update Hermes`)
    return fn.bind(app()) as NonNullable<AppBindings[K]>
  }
  const on = (name: string, cb: (data: unknown) => void): (() => void) => {
    if (!win.runtime) return () => {}
    return win.runtime.EventsOn(name, cb)
  }
  // Each watch gets its own event name, so the page hears only the runs it
  // watches. A reloaded page starts again from 1: its first watches replace
  // those the page before left behind.
  let watches = 0
  return {
    listRuns: () => call(async () => (await app().ListRuns()) ?? []),
    // The window pages as GET /api/runs does, labels included; an older
    // window's binding lists every run and the page is cut here.
    listRunsPage: (before, limit, label = '') =>
      call(async () => {
        const b = app()
        if (!b.ListRunsPage) {
          const all = (await b.ListRuns()) ?? []
          if (!label) return pageOf(all, before, limit)
          const labels = (await method('Labels')()) ?? {}
          return pageOf(
            all.filter((r) => labels[r.run_id]?.label === label),
            before,
            limit,
          )
        }
        const p = await b.ListRunsPage(before, limit, label)
        return { runs: p?.runs ?? [], next: p?.next ?? '' }
      }),
    runEvents: (id) => call(async () => (await app().RunEvents(id)) ?? []),
    language: () => call(() => app().Language()),
    startRun: (req) => call(async () => runId(await method('StartRun')(req))),
    control: (id, req) => call(() => method('Control')(id, req)),
    approve: (id, approvalId, answer) => call(() => method('Approve')(id, approvalId, answer)),
    resumeRun: (id, req = {}) => call(async () => runId(await method('ResumeRun')(id, req))),
    forkRun: (id, req) => call(async () => runId(await method('ForkRun')(id, req))),
    renameRun: (id, title) => call(() => method('RenameRun')(id, title)),
    deleteRun: (id) => call(() => method('DeleteRun')(id)),
    artifact: (id, ref, offset = 0, limit = 0) =>
      call(async () => {
        const a = await method('Artifact')(id, ref, offset, limit)
        if (typeof a === 'string') return { text: a, total: a.length }
        const o = (a ?? {}) as { text?: string; total_size?: number; total?: number }
        const text = o.text ?? ''
        return { text, total: o.total_size ?? o.total ?? text.length }
      }),
    settings: () => call(() => method('Settings')()),
    setVault: (vault) => call(() => method('SetVault')(vault)),
    checkModel: (req) => call(() => method('CheckModel')(req)),
    // Listen first, then ask: the window sends the events so far and the
    // live ones on this watch's name, with no gap, then the end.
    watchRun(id, after, handlers) {
      const watchId = String(++watches)
      let live = true
      const off = on(`hermes:watch:${watchId}`, (data) => {
        const m = (data ?? {}) as WatchMessage
        if (!live) return
        if (m.events && m.events.length > 0) handlers.onEvents(m.events)
        if (m.end) end()
      })
      const end = () => {
        if (!live) return
        live = false
        off()
        handlers.onEnd?.()
      }
      // A run the window cannot watch is over for this watch; the page that
      // opened the run already reported why it cannot be read.
      void call(() => method('WatchRun')(watchId, id, after)).catch(end)
      return () => {
        if (!live) return
        live = false
        off()
        void call(() => method('UnwatchRun')(watchId)).catch(() => {})
      }
    },
    watchRuns(onRun) {
      return on('hermes:run', (data) => {
        if (data && typeof data === 'object') onRun(data as RunSummary)
      })
    },
    contextPreview: (id) => call(() => method('ContextPreview')(id)),
    vaultEdit: (id, callId) => call(() => method('VaultEdit')(id, callId)),
    undoVaultEdit: (id, callId) => call(() => method('UndoVaultEdit')(id, callId)),
    vaultNote: (id, name, from) => call(() => method('VaultNote')(id, name, from)),
    memories: (limit = 0) => call(async () => (await method('Memories')(limit)) ?? []),
    pinMemory: (id, pinned) => call(() => method('PinMemory')(id, pinned)),
    forgetMemory: (id) => call(() => method('ForgetMemory')(id)),
    notices: () => call(async () => (await method('Notices')()) ?? []),
    watchNotices(onNotice) {
      return on('hermes:notice', (data) => {
        if (data && typeof data === 'object') onNotice(data as Notice)
      })
    },
    installUpdate: () => call(() => method('InstallUpdate')()),
    // A window built before the cluster view has no cluster to show.
    clusterStatus: () => call(async () => (app().ClusterStatus ? ((await app().ClusterStatus!()) ?? noCluster) : noCluster)),
    evals: () => call(async () => (await method('Evals')()) ?? []),
    evalDetail: (id) => call(() => method('Eval')(id)),
    labels: () => call(async () => (await method('Labels')()) ?? {}),
    setLabel: (id, label, note) => call(() => method('SetLabel')(id, label, note)),
    runCase: (id) => call(() => method('RunCase')(id)),
    saveCase: (id, req) => call(() => method('SaveCase')(id, req)),
  }
}

function runId(v: unknown): string {
  if (typeof v === 'string') return v
  return (v as { run_id?: string } | null)?.run_id ?? ''
}

// Wails rejects with the Go error's text: the {"error": …} JSON of
// docs/api.md when the backend explained it, plain text otherwise.
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof ApiError) throw err
    const text = err instanceof Error ? err.message : String(err)
    try {
      const body = JSON.parse(text) as { error?: ApiErrorBody }
      if (body.error) {
        const messages = body.error.message ?? {}
        throw new ApiError(messages.en ?? text, { code: body.error.code ?? '', messages })
      }
    } catch (parsed) {
      if (parsed instanceof ApiError) throw parsed
    }
    throw new ApiError(text)
  }
}
