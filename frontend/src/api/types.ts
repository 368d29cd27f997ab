// Wire types: the JSON that `hermes serve` and the Wails bindings return.
// Field names are snake_case, as in backend/runlog and backend/event.

export type RunStatus = 'running' | 'finished' | 'max_iterations' | 'guard' | 'budget' | 'stopped' | 'failed'

export const runStatuses: readonly RunStatus[] = ['running', 'finished', 'max_iterations', 'guard', 'budget', 'stopped', 'failed']

/** ForkRef names the run and iteration a run was forked from. */
export interface ForkRef {
  run_id: string
  iteration: number
  /** The source run's model and endpoint, when the fork asked another. */
  from_model?: string
  from_base_url?: string
}

/** RunSummary is runlog.Summary plus what the runner knows of live runs (docs/api.md). */
export interface RunSummary {
  run_id: string
  task: string
  status: RunStatus | string
  model: string
  workspace: string
  started: string
  ended?: string
  iterations: number
  tokens: number
  tool_calls: number
  answer?: string
  verified: boolean
  path?: string
  live?: boolean
  title?: string
  paused?: boolean
  pending_approval?: ApprovalRequestedData
  forked_from?: ForkRef
  sample?: boolean
  /** who asked, when not the person at this machine: "wecom/USER" for a chat user of the bot */
  origin?: string
}

/** RunPage is one page of the runs list (GET /api/runs?limit=&before=). */
export interface RunPage {
  runs: RunSummary[]
  /** The before of the following page; "" (or absent) on the last. */
  next: string
}

export type EventType =
  | 'run.started'
  | 'iteration.started'
  | 'context.built'
  | 'model.delta'
  | 'model.reasoning'
  | 'model.retried'
  | 'model.decided'
  | 'tool.started'
  | 'tool.finished'
  | 'guard.tripped'
  | 'limit.near'
  | 'approval.requested'
  | 'approval.resolved'
  | 'run.paused'
  | 'run.resumed'
  | 'instruction.injected'
  | 'task.edited'
  | 'call.edited'
  | 'summary.updated'
  | 'context.pinned'
  | 'memory.written'
  | 'memory.recalled'
  | 'checkpoint.saved'
  | 'run.finished'
  | 'route.decided'
  | 'plan.created'
  | 'plan.revised'
  | 'step.evaluated'
  | 'completion.checked'
  | 'question.asked'
  | 'question.answered'

/** HermesEvent is the envelope of backend/event.Event. */
export interface HermesEvent {
  v: number
  run_id: string
  seq: number
  time: string
  iteration: number
  type: EventType | string
  data: unknown
}

// Payloads this UI reads (backend/event/payload.go). Every field is optional
// on purpose: events are versioned and older or newer logs may lack a field.
export interface RunStartedData {
  task?: string
  instructions?: string
  workspace?: string
  model?: string
  base_url?: string
  max_iterations?: number
  token_budget?: number
  tools?: string[]
  forked_from?: ForkRef
  origin?: string
}

/** Layers are the token counts of one request's context layers. */
export interface Layers {
  system?: number
  task_anchor?: number
  summary?: number
  memory?: number
  recent?: number
  tool_results?: number
  tool_schemas?: number
}

export interface WireToolCall {
  id?: string
  name?: string
  arguments?: string
}

/** ChatMessage is one message sent to the model, in the OpenAI wire form. */
export interface ChatMessage {
  role: string
  content: string
  tool_calls?: WireToolCall[]
  tool_call_id?: string
  name?: string
}

export interface ContextBuiltData {
  layers?: Layers
  stage?: string
  tokens?: number
  window?: number
  budget_share?: number
  compressed?: boolean
  message_count?: number
  full?: boolean
  messages?: ChatMessage[]
  tool_names?: string[]
  /** How many messages of the conversation the summary covers. */
  folded?: number
  /** Schema tokens of the tools left out because they were not relevant to the task. */
  schemas_saved?: number
}

export interface Usage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  /** The part of completion_tokens spent thinking, when the provider says. */
  reasoning_tokens?: number
}

/** ModelReasoningData is the model's thinking, streamed before its text. */
export interface ModelReasoningData {
  text?: string
}

export interface DecidedCall {
  id?: string
  name?: string
  arguments?: string
  repaired?: boolean
  valid?: boolean
  error?: string
  /** Where the model took each ID, path or timestamp argument from: "user", "tool" or "inferred". */
  provenance?: Record<string, string>
}

export interface ModelDecidedData {
  thought?: string
  /** The model's whole thinking before this decision (reasoning_content). */
  reasoning?: string
  final_answer?: string
  tool_calls?: DecidedCall[]
  finish_reason?: string
  usage?: Usage
  latency_ms?: number
  attempts?: number
  stage?: string
  /** The stage its tokens count under in Totals.stage_tokens: decide, or answer once only the answer is left. */
  spent?: string
  /** Under a plan: the step the decision serves, whether it finishes it, how it serves the goal. */
  step?: number
  step_status?: 'continue' | 'finished' | string
  serves_goal?: string
  /** Why the decision was flagged as drifting from the goal; absent when on course. */
  drift?: string
}

export interface ModelRetriedData {
  attempt?: number
  wait_ms?: number
  error?: string
  stage?: string
}

export interface ToolStartedData {
  call_id?: string
  name?: string
  arguments?: string
  attempt?: number
}

export interface ToolFinishedData {
  call_id?: string
  name?: string
  ok?: boolean
  result?: string
  size?: number
  artifact?: string
  error?: string
  duration_ms?: number
  attempt?: number
}

/** limit.near: the run is close to a limit that ends it, and the model was told to wrap up. */
export interface LimitNearData {
  /** The guard that will stop the run: "max_iterations". */
  limit?: string
  /** What is left of the limit, the current iteration included. */
  left?: number
  max?: number
}

export interface GuardTrippedData {
  guard?: string
  action?: string
  message?: string
  details?: string[]
  stage?: string
}

export interface RunPausedData {
  at?: 'boundary' | 'decided' | string
  pending_calls?: DecidedCall[]
}

export interface RunResumedData {
  from_checkpoint?: boolean
  iteration?: number
  /** The model and endpoint the run goes on with; from_* when they were switched. */
  model?: string
  base_url?: string
  from_model?: string
  from_base_url?: string
}

export interface InstructionInjectedData {
  text?: string
}

export interface TaskEditedData {
  old_task?: string
  new_task?: string
  old_instructions?: string
  new_instructions?: string
}

export interface CallEditedData {
  call_id?: string
  name?: string
  old_arguments?: string
  new_arguments?: string
}

/** SummaryUpdatedData records a compression: old turns folded into the rolling summary. */
export interface SummaryUpdatedData {
  summary?: string
  previous?: string
  progress?: string
  /** The messages folded: from (inclusive) to (exclusive), numbered from 0 after the task anchor. */
  from?: number
  to?: number
  turns_folded?: number
  /** Values kept verbatim beside the summary. */
  entities?: string[]
  entities_added?: string[]
  tokens_before?: number
  tokens_after?: number
  model?: string
  /** The summary call's usage, as the provider reported it. */
  usage?: Usage
}

/** ContextPinnedData: a fact, or a message of the conversation by its index, joined the pinned layer. */
export interface ContextPinnedData {
  fact?: string
  message?: number
  role?: string
  preview?: string
}

/** MemoryRef (event.MemoryRef) is a long-term memory as memory.written and memory.recalled show it. */
export interface MemoryRef extends Why {
  id: number
  kind: string
  text: string
  /** what in run run_id it came from: "task" | "instruction" | "standing" | "result"; absent for old entries */
  source?: string
  run_id?: string
}

/** Why (memory.Why) says why a memory was recalled: pinned, a preference, or the task's terms it matched. */
export interface Why {
  reason?: 'pinned' | 'preference' | 'match' | string
  terms?: string[]
  score?: number
}

/** MemoryRecalledData: the memories a new run was given, each with why. */
export interface MemoryRecalledData {
  entries?: MemoryRef[]
}

export type ApprovalDecision = 'allow_once' | 'allow_run' | 'allow_always' | 'deny'

export interface ApprovalRequestedData {
  approval_id?: string
  call_id?: string
  name?: string
  arguments?: string
  risk?: string
  reason?: string
}

export interface ApprovalResolvedData {
  approval_id?: string
  call_id?: string
  decision?: ApprovalDecision | string
  reason?: string
  pattern?: string
  by?: string
}

export interface Totals {
  iterations?: number
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  tool_calls?: number
  duration_ms?: number
  reasoning_tokens?: number
  /** The stages' own model requests: routing, planning, evaluating, the completion check. */
  stage_calls?: number
  /** total_tokens split by stage: route, plan, decide, evaluate, answer, summary. */
  stage_tokens?: Record<string, number>
}

export interface RunFinishedData {
  status?: string
  answer?: string
  verified?: boolean
  error?: string
  totals?: Totals
  resume?: string
  /** The answer never passed the completion check; the run reached a limit. */
  best_effort?: boolean
  confidence?: number
  confidence_reason?: string
}

// Plans, checks and questions (docs/api.md).

export interface RouteDecidedData {
  route?: 'direct' | 'loop' | string
  by?: 'rules' | 'model' | string
  reason?: string
}

export type StepStatus = 'pending' | 'passed' | 'failed'

export interface PlanStep {
  id: number
  description?: string
  tools?: string[]
  acceptance?: string
  required?: boolean
  status?: StepStatus | string
  reason?: string
}

export interface PlanCreatedData {
  steps?: PlanStep[]
  assumptions?: string[]
  attempts?: number
  repaired?: boolean
  dropped?: string[]
}

export interface PlanDiff {
  added?: PlanStep[]
  removed?: PlanStep[]
  changed?: { before: PlanStep; after: PlanStep }[]
  kept?: number[]
}

export interface PlanRevisedData {
  reason?: string
  steps?: PlanStep[]
  assumptions?: string[]
  diff?: PlanDiff
}

export interface StepEvaluatedData {
  step?: number
  passed?: boolean
  reason?: string
  contradicts_plan?: boolean
  unchecked?: boolean
  calls?: string[]
  next_step?: number
}

export interface CompletionCheckedData {
  passed?: boolean
  steps_passed?: number
  steps_required?: number
  missing?: number[]
  unresolved_failure?: string
  confidence?: number
  reason?: string
  threshold?: number
}

export interface QuestionAskedData {
  question_id?: string
  call_id?: string
  tool?: string
  argument?: string
  value?: string
  failure?: string
  question?: string
}

export interface QuestionAnsweredData {
  question_id?: string
  answer?: string
  by?: 'user' | 'no_one' | 'stop' | string
}

// Requests (docs/api.md).

export interface StartRunRequest {
  task: string
  instructions?: string
  workspace?: string
  model?: string
  base_url?: string
}

export type ControlKind = 'pause' | 'resume' | 'stop' | 'inject' | 'edit' | 'edit_call' | 'pin' | 'answer'

export interface ControlRequest {
  kind: ControlKind
  text?: string
  task?: string
  instructions?: string
  call_id?: string
  arguments?: string
  /** pin: the index of the message to pin (text pins a fact instead). */
  message?: number
  /** answer: the question answered (empty: the open one); text empty means no one can answer. */
  question_id?: string
}

export interface ApprovalAnswer {
  decision: ApprovalDecision
  reason?: string
  pattern?: string
}

export interface ResumeRequest {
  model?: string
  base_url?: string
  max_iterations?: number
}

export interface ForkRequest {
  iteration: number
  task?: string
  instructions?: string
  model?: string
  base_url?: string
}

export interface ModelCheckRequest {
  model?: string
  base_url?: string
}

export interface ApiErrorBody {
  code?: string
  message?: Record<string, string>
}

export interface ModelCheck {
  ok: boolean
  error?: ApiErrorBody
}

export interface Settings {
  model: string
  base_url: string
  has_key: boolean
  workspace: string
  language: string
  home: string
}

export interface Artifact {
  text: string
  total: number
}

/** PreviewTurn is one message the next compression would fold. */
export interface PreviewTurn {
  index: number
  role: string
  name?: string
  call_id?: string
  text: string
  tokens: number
  pinned?: boolean
}

/** ContextPreview (contextmgr.Preview): which messages the next compression will fold. */
export interface ContextPreview {
  tokens: number
  threshold: number
  window: number
  due: boolean
  folded: number
  turns: PreviewTurn[]
  pinned: number[]
  facts: string[]
}

export type MemoryKind = 'outcome' | 'fact' | 'preference' | 'path'

/** MemoryEntry (memory.Entry) is one long-term memory. */
export interface MemoryEntry {
  id: number
  kind: MemoryKind | string
  text: string
  run_id?: string
  created: string
  recalled?: string
  recalls?: number
  pinned?: boolean
  /** whose memory: absent for the desktop's, "bot/PLATFORM/USER/N" for a chat conversation's */
  namespace?: string
  /** what in run run_id it came from: "task" | "instruction" | "standing" | "result"; absent for entries older than sources */
  source?: string
  /** the run that last recalled it, and why */
  last_recall?: Why & { run_id: string }
}

export type UpdateState = 'idle' | 'checking' | 'up_to_date' | 'downloading' | 'ready' | 'applying' | 'applied' | 'failed'

/** UpdateStatus (update.Status) is where an update stands. */
export interface UpdateStatus {
  state: UpdateState | string
  installed: string
  version?: string
  notes?: string
  notes_zh?: string
  done?: number
  total?: number
  error?: string
}

/** ConfigProblem is one mistake in hermes.toml, with its place when it has one. */
export interface ConfigProblem {
  line?: number
  column?: number
  message: Record<string, string>
}

export type NoticeKind = 'config_error' | 'config_reloaded' | 'update'

/** Notice (runner.Notice) is shown outside any run; a newer notice replaces the one with its id. */
export interface Notice {
  id: string
  kind: NoticeKind | string
  time: string
  message?: Record<string, string>
  problems?: ConfigProblem[]
  path?: string
  update?: UpdateStatus
  /** This process can install the update and restart (the window). */
  restart?: boolean
}
