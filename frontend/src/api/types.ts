// Wire types: the JSON that `hermes serve` and the Wails bindings return.
// Field names are snake_case, as in backend/runlog and backend/event.

export type RunStatus = 'running' | 'finished' | 'max_iterations' | 'guard' | 'budget' | 'stopped' | 'failed'

export const runStatuses: readonly RunStatus[] = ['running', 'finished', 'max_iterations', 'guard', 'budget', 'stopped', 'failed']

/** ForkRef names the run and iteration a run was forked from. */
export interface ForkRef {
  run_id: string
  iteration: number
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
}

export type EventType =
  | 'run.started'
  | 'iteration.started'
  | 'context.built'
  | 'model.delta'
  | 'model.retried'
  | 'model.decided'
  | 'tool.started'
  | 'tool.finished'
  | 'guard.tripped'
  | 'approval.requested'
  | 'approval.resolved'
  | 'run.paused'
  | 'run.resumed'
  | 'instruction.injected'
  | 'task.edited'
  | 'call.edited'
  | 'summary.updated'
  | 'memory.written'
  | 'checkpoint.saved'
  | 'run.finished'

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
  tokens?: number
  window?: number
  budget_share?: number
  compressed?: boolean
  message_count?: number
  full?: boolean
  messages?: ChatMessage[]
  tool_names?: string[]
}

export interface Usage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
}

export interface DecidedCall {
  id?: string
  name?: string
  arguments?: string
  repaired?: boolean
  valid?: boolean
  error?: string
}

export interface ModelDecidedData {
  thought?: string
  final_answer?: string
  tool_calls?: DecidedCall[]
  finish_reason?: string
  usage?: Usage
  latency_ms?: number
  attempts?: number
}

export interface ModelRetriedData {
  attempt?: number
  wait_ms?: number
  error?: string
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

export interface GuardTrippedData {
  guard?: string
  action?: string
  message?: string
  details?: string[]
}

export interface RunPausedData {
  at?: 'boundary' | 'decided' | string
  pending_calls?: DecidedCall[]
}

export interface RunResumedData {
  from_checkpoint?: boolean
  iteration?: number
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
  turns_folded?: number
  tokens_before?: number
  tokens_after?: number
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
}

export interface RunFinishedData {
  status?: string
  answer?: string
  verified?: boolean
  error?: string
  totals?: Totals
  resume?: string
}

// Requests (docs/api.md).

export interface StartRunRequest {
  task: string
  instructions?: string
  workspace?: string
  model?: string
  base_url?: string
}

export type ControlKind = 'pause' | 'resume' | 'stop' | 'inject' | 'edit' | 'edit_call'

export interface ControlRequest {
  kind: ControlKind
  text?: string
  task?: string
  instructions?: string
  call_id?: string
  arguments?: string
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
