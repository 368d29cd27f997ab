// Wire types: the JSON that `hermes serve` and the Wails bindings return.
// Field names are snake_case, as in backend/runlog and backend/event.

export type RunStatus =
  | 'running'
  | 'finished'
  | 'max_iterations'
  | 'guard'
  | 'budget'
  | 'stopped'
  | 'failed'

export const runStatuses: readonly RunStatus[] = [
  'running',
  'finished',
  'max_iterations',
  'guard',
  'budget',
  'stopped',
  'failed',
]

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
  path: string
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

// Payloads this UI reads. Every field is optional on purpose: events are
// versioned and older or newer logs may lack a field.
export interface RunStartedData {
  task?: string
  workspace?: string
  model?: string
  max_iterations?: number
  tools?: string[]
}

export interface ContextBuiltData {
  tokens?: number
  window?: number
  budget_share?: number
  compressed?: boolean
  message_count?: number
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

export interface TaskEditedData {
  old_task?: string
  new_task?: string
  old_instructions?: string
  new_instructions?: string
}
