import type { EvalDetail, EvalRow, Labels } from '../lib/evals'
import type {
  ApprovalAnswer,
  Artifact,
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

/** EventHandlers receive a run's events as they come, in batches. */
export interface EventHandlers {
  onEvents(events: HermesEvent[]): void
  /** The run's leg is over (or it was not live): no more events will come on this watch. */
  onEnd?(): void
}

/**
 * Api is everything the UI asks of the backend (docs/api.md). It has two
 * transports: the Wails bindings and events inside the desktop window, and
 * HTTP + Server-Sent Events against `hermes serve` in a browser; the rest of
 * the UI never knows which one it has.
 */
export interface Api {
  /** Live runs first, then the runs in the home's logs, newest first. */
  listRuns(): Promise<RunSummary[]>
  /**
   * listRunsPage is one page of listRuns: up to limit runs after the run
   * before ("" from the newest; the live runs come first on that page),
   * only those a person labelled label ('good' or 'bad'; '' any), chosen
   * where the labels are kept. next is the before of the following page,
   * "" on the last.
   */
  listRunsPage(before: string, limit: number, label?: string): Promise<RunPage>
  /** The events of one run so far, in seq order. */
  runEvents(runId: string): Promise<HermesEvent[]>
  /** The backend's language ("en" or "zh-CN"), or "" when it has no say. */
  language(): Promise<string>
  startRun(req: StartRunRequest): Promise<string>
  control(runId: string, req: ControlRequest): Promise<void>
  approve(runId: string, approvalId: string, answer: ApprovalAnswer): Promise<void>
  resumeRun(runId: string, req?: ResumeRequest): Promise<string>
  forkRun(runId: string, req: ForkRequest): Promise<string>
  renameRun(runId: string, title: string): Promise<void>
  deleteRun(runId: string): Promise<void>
  artifact(runId: string, ref: string, offset?: number, limit?: number): Promise<Artifact>
  settings(): Promise<Settings>
  /** setVault writes [obsidian] vault into hermes.toml ("" removes it) and resolves with the settings then. */
  setVault(vault: string): Promise<Settings>
  checkModel(req: ModelCheckRequest): Promise<ModelCheck>
  /**
   * watchRun delivers the events of runId with seq > after: those so far,
   * then the live ones. Repeats are possible (the fold drops them by seq);
   * gaps are not. It returns a function that stops watching.
   */
  watchRun(runId: string, after: number, handlers: EventHandlers): () => void
  /** watchRuns calls onRun with a run's summary whenever a live run changes. */
  watchRuns(onRun: (run: RunSummary) => void): () => void
  /** contextPreview says which messages the run's next compression will fold. */
  contextPreview(runId: string): Promise<ContextPreview>
  /** vaultEdit is what a vault edit of the run's call changed, and when it was undone. */
  vaultEdit(runId: string, callId: string): Promise<VaultEdit>
  /** undoVaultEdit puts back what the edit changed (a rename as one); refused, with why, when a note changed since. */
  undoVaultEdit(runId: string, callId: string): Promise<VaultEdit>
  /** vaultNote reads a note of the run's vault by name, as a wikilink in the note at from ("" for none) finds it. */
  vaultNote(runId: string, name: string, from: string): Promise<VaultNote>
  /** memories lists up to limit long-term memories (0: the backend's default), newest first. */
  memories(limit?: number): Promise<MemoryEntry[]>
  pinMemory(id: number, pinned: boolean): Promise<void>
  forgetMemory(id: number): Promise<void>
  /** notices are the notices in force: a broken hermes.toml, an update on offer. */
  notices(): Promise<Notice[]>
  /** watchNotices calls onNotice with every notice published from now on. */
  watchNotices(onNotice: (n: Notice) => void): () => void
  /** installUpdate installs the downloaded update and restarts Hermes (the window only). */
  installUpdate(): Promise<void>
  /** clusterStatus is the bot replicas of [cluster] nats_url, their tasks and the queue; enabled is false without a cluster. */
  clusterStatus(): Promise<ClusterStatus>
  /** evals lists the home's evals, newest first, with their runs passed, failed and erred (docs/evals.md). */
  evals(): Promise<EvalRow[]>
  /** evalDetail is one eval: its results and its table against its baseline. */
  evalDetail(id: string): Promise<EvalDetail>
  /** labels are the labels of the labelled runs, by run id. */
  labels(): Promise<Labels>
  /** setLabel marks a run good or bad with a note; "" takes the label away. */
  setLabel(runId: string, label: string, note: string): Promise<void>
  /** runCase proposes a test case from a finished run. */
  runCase(runId: string): Promise<CaseProposal>
  /** saveCase appends a (edited) test case of the run to a suite in the home or the run's workspace. */
  saveCase(runId: string, req: CaseRequest): Promise<CaseSaved>
}

/**
 * ApiError is a failure the backend explained. messages holds its text per
 * language when the backend sent both; text is the one it sent else.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly messages: Readonly<Record<string, string>>

  constructor(text: string, opts: { status?: number; code?: string; messages?: Record<string, string> } = {}) {
    super(text)
    this.name = 'ApiError'
    this.status = opts.status ?? 0
    this.code = opts.code ?? ''
    this.messages = opts.messages ?? {}
  }

  /** The message in lang when the backend gave one, else the plain text. */
  messageIn(lang: string): string {
    return this.messages[lang] ?? this.message
  }
}

/** toApiError turns anything thrown into an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  return new ApiError(err instanceof Error ? err.message : String(err))
}
