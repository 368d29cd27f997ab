import type {
  ApprovalRequestedData,
  ApprovalResolvedData,
  CallEditedData,
  CompletionCheckedData,
  ContextBuiltData,
  ContextPinnedData,
  DecidedCall,
  GuardTrippedData,
  HermesEvent,
  LimitNearData,
  MemoryRecalledData,
  Layers,
  ModelDecidedData,
  ModelReasoningData,
  ModelRetriedData,
  PlanCreatedData,
  PlanRevisedData,
  QuestionAnsweredData,
  QuestionAskedData,
  RouteDecidedData,
  RunFinishedData,
  RunPausedData,
  RunResumedData,
  RunStartedData,
  StepEvaluatedData,
  SummaryUpdatedData,
  TaskEditedData,
  ToolFinishedData,
  ToolSandbox,
  ToolStartedData,
} from '../api/types'
import type { Priced } from './cost'

// One card of the timeline: everything that happened in one model turn, in
// the order it happened. Built by applyToIteration, one event at a time.

/** noLayers are the layers of a context.built that carries none (an older log). */
const noLayers: Layers = { system: 0, task_anchor: 0, summary: 0, memory: 0, recent: 0, tool_results: 0, tool_schemas: 0 }

export type CallStatus = 'decided' | 'invalid' | 'awaiting_approval' | 'denied' | 'running' | 'ok' | 'failed'

export interface CallApproval {
  approvalId: string
  risk: string
  reason: string
  decision: string
  denyReason: string
  pattern: string
  by: string
  /** The model asked to run the call outside the OS sandbox. */
  escaping: boolean
  /** What the call would change, as its tool worked it out for the approval (a vault edit's change). */
  change?: unknown
}

export interface CallView {
  id: string
  name: string
  /** The arguments as the model wrote them, or as a person edited them. */
  arguments: string
  repaired: boolean
  invalidReason: string
  status: CallStatus
  attempts: number
  durationMs: number
  /** The result as the model saw it. */
  result: string
  size: number
  /** A reference to the full output, when the model saw it cut. */
  artifact: string
  error: string
  edit?: { old: string; new: string }
  approval?: CallApproval
  /** Where the model said each ID, path or timestamp argument came from. */
  provenance: Record<string, string>
  /** How the call's process ran and what the sandbox stopped; absent for a tool that started none. */
  sandbox?: ToolSandbox
}

/** Decision is what a decision under a plan says of itself. */
export interface Decision {
  stage: string
  step: number
  stepStatus: string
  servesGoal: string
  /** Why it was flagged as drifting from the goal; "" when on course. */
  drift: string
}

export interface ContextInfo {
  seq: number
  tokens: number
  window: number
  budgetShare: number
  compressed: boolean
  full: boolean
  messageCount: number
  layers: Layers
  /** Schema tokens of the tools left out of the request as not relevant. */
  schemasSaved: number
  /** How many tools' schemas the request carried. */
  toolCount: number
  /** The provider's tokens per estimated token the layers were scaled by; 0 before any report. */
  ratio: number
}

/** Marks are the things that entered a card between the model and its tools. */
export type Mark =
  | { kind: 'started'; seq: number; data: RunStartedData }
  | { kind: 'guard'; seq: number; data: GuardTrippedData }
  | { kind: 'limit_near'; seq: number; data: LimitNearData }
  | { kind: 'injected'; seq: number; text: string }
  | { kind: 'task_edited'; seq: number; data: TaskEditedData }
  | { kind: 'call_edited'; seq: number; data: CallEditedData }
  | { kind: 'paused'; seq: number; data: RunPausedData }
  | { kind: 'resumed'; seq: number; data: RunResumedData }
  | { kind: 'retried'; seq: number; data: ModelRetriedData }
  | { kind: 'approval'; seq: number; callId: string; data: ApprovalResolvedData }
  | { kind: 'summary'; seq: number; data: SummaryUpdatedData }
  | { kind: 'pinned'; seq: number; data: ContextPinnedData }
  | { kind: 'memory'; seq: number }
  | { kind: 'recalled'; seq: number; data: MemoryRecalledData }
  | { kind: 'finished'; seq: number; data: RunFinishedData }
  | { kind: 'route'; seq: number; data: RouteDecidedData }
  | { kind: 'plan'; seq: number; data: PlanCreatedData }
  | { kind: 'replan'; seq: number; data: PlanRevisedData }
  | { kind: 'evaluated'; seq: number; data: StepEvaluatedData }
  | { kind: 'question'; seq: number; data: QuestionAskedData }
  | { kind: 'answered'; seq: number; data: QuestionAnsweredData }
  | { kind: 'completion'; seq: number; data: CompletionCheckedData }

/** A card's content in the order it happened: the model's turn, each call, each mark. */
export type Item = { kind: 'model'; seq: number } | { kind: 'call'; seq: number; id: string } | { kind: 'mark'; seq: number; mark: Mark }

export interface IterationView {
  n: number
  started?: string
  ended?: string
  /** Seqs of this iteration's events, in order; the events live in the run's list. */
  seqs: number[]
  context: ContextInfo | null
  tokensIn: number
  tokensOut: number
  /** Text streamed by the model so far; the thought replaces it once decided. */
  streamed: string
  /** The model's thinking before its text: streamed, then the decision's whole. */
  reasoning: string
  reasoningTokens: number
  /** The turn's cost at its model's price (model.decided's cost, backend/price); undefined without a price. */
  cost?: number
  currency?: string
  decided: boolean
  thought: string
  answer: string
  /** The decision's stage, step and course, or null before it is decided. */
  decision: Decision | null
  latencyMs: number
  modelAttempts: number
  calls: CallView[]
  items: Item[]
  guards: number
  failedCalls: number
  /** Iterations left when the model was told to wrap up in this turn; 0 when it was not. */
  itersLeft: number
}

export function newIteration(n: number, time: string): IterationView {
  return {
    n,
    started: time,
    seqs: [],
    context: null,
    tokensIn: 0,
    tokensOut: 0,
    streamed: '',
    reasoning: '',
    reasoningTokens: 0,
    decided: false,
    thought: '',
    answer: '',
    decision: null,
    latencyMs: 0,
    modelAttempts: 0,
    calls: [],
    items: [],
    guards: 0,
    failedCalls: 0,
    itersLeft: 0,
  }
}

export const obj = <T>(data: unknown): T => (data && typeof data === 'object' ? (data as T) : ({} as T))

function decidedCall(c: DecidedCall, i: number): CallView {
  const valid = c.valid !== false
  return {
    id: c.id || `#${i + 1}`,
    name: c.name ?? '?',
    arguments: c.arguments ?? '',
    repaired: c.repaired ?? false,
    invalidReason: valid ? '' : (c.error ?? ''),
    status: valid ? 'decided' : 'invalid',
    attempts: 0,
    durationMs: 0,
    result: '',
    size: 0,
    artifact: '',
    error: '',
    provenance: c.provenance ?? {},
  }
}

function withCall(it: IterationView, id: string | undefined, fn: (c: CallView) => CallView): void {
  const i = it.calls.findIndex((c) => c.id === id)
  if (i < 0) return
  const calls = it.calls.slice()
  calls[i] = fn(calls[i])
  it.calls = calls
}

const mark = (it: IterationView, m: Mark) => {
  it.items = [...it.items, { kind: 'mark', seq: m.seq, mark: m }]
}

/** applyToIteration returns prev with e folded in; prev is left untouched. */
export function applyToIteration(prev: IterationView, e: HermesEvent): IterationView {
  const it: IterationView = { ...prev, seqs: [...prev.seqs, e.seq], ended: e.time }
  if (e.type === 'iteration.started') it.started = e.time
  switch (e.type) {
    case 'run.started':
      mark(it, { kind: 'started', seq: e.seq, data: obj<RunStartedData>(e.data) })
      break
    case 'context.built': {
      const d = obj<ContextBuiltData>(e.data)
      it.context = {
        seq: e.seq,
        tokens: d.tokens ?? 0,
        window: d.window ?? 0,
        budgetShare: d.budget_share ?? 0,
        compressed: d.compressed ?? false,
        full: d.full ?? false,
        messageCount: d.message_count ?? 0,
        layers: d.layers ?? noLayers,
        schemasSaved: d.schemas_saved ?? 0,
        toolCount: d.tool_names?.length ?? 0,
        ratio: d.ratio ?? 0,
      }
      break
    }
    case 'model.delta':
      if (!it.items.some((x) => x.kind === 'model')) it.items = [...it.items, { kind: 'model', seq: e.seq }]
      it.streamed += obj<{ text?: string }>(e.data).text ?? ''
      break
    case 'model.reasoning':
      if (!it.items.some((x) => x.kind === 'model')) it.items = [...it.items, { kind: 'model', seq: e.seq }]
      it.reasoning += obj<ModelReasoningData>(e.data).text ?? ''
      break
    case 'model.retried':
      mark(it, { kind: 'retried', seq: e.seq, data: obj<ModelRetriedData>(e.data) })
      break
    case 'model.decided': {
      const d = obj<ModelDecidedData>(e.data)
      if (!it.items.some((x) => x.kind === 'model')) it.items = [...it.items, { kind: 'model', seq: e.seq }]
      it.decided = true
      it.tokensIn += d.usage?.prompt_tokens ?? 0
      it.tokensOut += d.usage?.completion_tokens ?? 0
      it.reasoningTokens += d.usage?.reasoning_tokens ?? 0
      const priced = d as Priced
      if (priced.cost !== undefined && priced.cost !== null) {
        it.cost = (it.cost ?? 0) + priced.cost
        it.currency = priced.currency
      }
      it.reasoning = d.reasoning ?? it.reasoning
      it.thought = d.thought ?? (d.final_answer ? '' : it.streamed)
      it.answer = d.final_answer ?? ''
      it.latencyMs = d.latency_ms ?? 0
      it.modelAttempts = d.attempts ?? 1
      it.decision = { stage: d.stage ?? '', step: d.step ?? 0, stepStatus: d.step_status ?? '', servesGoal: d.serves_goal ?? '', drift: d.drift ?? '' }
      const calls = (d.tool_calls ?? []).map(decidedCall)
      it.calls = [...it.calls, ...calls]
      it.items = [...it.items, ...calls.map((c) => ({ kind: 'call' as const, seq: e.seq, id: c.id }))]
      break
    }
    case 'approval.requested': {
      const d = obj<ApprovalRequestedData>(e.data)
      withCall(it, d.call_id, (c) => ({
        ...c,
        status: 'awaiting_approval',
        approval: {
          approvalId: d.approval_id ?? '',
          risk: d.risk ?? '',
          reason: d.reason ?? '',
          decision: '',
          denyReason: '',
          pattern: '',
          by: '',
          escaping: d.escaping ?? false,
          ...(d.change !== undefined && { change: d.change }),
        },
      }))
      break
    }
    case 'approval.resolved': {
      const d = obj<ApprovalResolvedData>(e.data)
      withCall(it, d.call_id, (c) => ({
        ...c,
        status: d.decision === 'deny' ? 'denied' : c.status === 'awaiting_approval' ? 'decided' : c.status,
        approval: {
          ...(c.approval ?? { approvalId: d.approval_id ?? '', risk: '', reason: '', escaping: false }),
          decision: d.decision ?? '',
          denyReason: d.reason ?? '',
          pattern: d.pattern ?? '',
          by: d.by ?? '',
        },
      }))
      mark(it, { kind: 'approval', seq: e.seq, callId: d.call_id ?? '', data: d })
      break
    }
    case 'call.edited': {
      const d = obj<CallEditedData>(e.data)
      withCall(it, d.call_id, (c) => ({
        ...c,
        arguments: d.new_arguments ?? c.arguments,
        edit: { old: c.edit?.old ?? d.old_arguments ?? c.arguments, new: d.new_arguments ?? '' },
      }))
      mark(it, { kind: 'call_edited', seq: e.seq, data: d })
      break
    }
    case 'tool.started': {
      const d = obj<ToolStartedData>(e.data)
      withCall(it, d.call_id, (c) => ({ ...c, status: 'running', attempts: Math.max(c.attempts, d.attempt ?? 1) }))
      break
    }
    case 'tool.finished': {
      const d = obj<ToolFinishedData>(e.data)
      const before = it.calls.find((c) => c.id === d.call_id)
      const wasFailed = before?.status === 'failed'
      withCall(it, d.call_id, (c) => ({
        ...c,
        status: d.ok ? 'ok' : c.status === 'denied' ? 'denied' : 'failed',
        attempts: Math.max(c.attempts, d.attempt ?? 1),
        durationMs: c.durationMs + (d.duration_ms ?? 0),
        result: d.result ?? '',
        size: d.size ?? 0,
        artifact: d.artifact ?? '',
        error: d.error ?? '',
        sandbox: d.sandbox,
      }))
      // A retried call counts once, by its last outcome.
      if (before) it.failedCalls += (d.ok ? 0 : 1) - (wasFailed ? 1 : 0)
      break
    }
    case 'guard.tripped':
      it.guards++
      mark(it, { kind: 'guard', seq: e.seq, data: obj<GuardTrippedData>(e.data) })
      break
    case 'limit.near': {
      const d = obj<LimitNearData>(e.data)
      it.itersLeft = d.left ?? 0
      mark(it, { kind: 'limit_near', seq: e.seq, data: d })
      break
    }
    case 'run.paused':
      mark(it, { kind: 'paused', seq: e.seq, data: obj<RunPausedData>(e.data) })
      break
    case 'run.resumed':
      mark(it, { kind: 'resumed', seq: e.seq, data: obj<RunResumedData>(e.data) })
      break
    case 'instruction.injected':
      mark(it, { kind: 'injected', seq: e.seq, text: obj<{ text?: string }>(e.data).text ?? '' })
      break
    case 'task.edited':
      mark(it, { kind: 'task_edited', seq: e.seq, data: obj<TaskEditedData>(e.data) })
      break
    case 'summary.updated':
      mark(it, { kind: 'summary', seq: e.seq, data: obj<SummaryUpdatedData>(e.data) })
      break
    case 'context.pinned':
      mark(it, { kind: 'pinned', seq: e.seq, data: obj<ContextPinnedData>(e.data) })
      break
    case 'memory.written':
      mark(it, { kind: 'memory', seq: e.seq })
      break
    case 'memory.recalled':
      mark(it, { kind: 'recalled', seq: e.seq, data: obj<MemoryRecalledData>(e.data) })
      break
    case 'run.finished':
      mark(it, { kind: 'finished', seq: e.seq, data: obj<RunFinishedData>(e.data) })
      break
    case 'route.decided':
      mark(it, { kind: 'route', seq: e.seq, data: obj<RouteDecidedData>(e.data) })
      break
    case 'plan.created':
      mark(it, { kind: 'plan', seq: e.seq, data: obj<PlanCreatedData>(e.data) })
      break
    case 'plan.revised':
      mark(it, { kind: 'replan', seq: e.seq, data: obj<PlanRevisedData>(e.data) })
      break
    case 'step.evaluated':
      mark(it, { kind: 'evaluated', seq: e.seq, data: obj<StepEvaluatedData>(e.data) })
      break
    case 'question.asked':
      mark(it, { kind: 'question', seq: e.seq, data: obj<QuestionAskedData>(e.data) })
      break
    case 'question.answered':
      mark(it, { kind: 'answered', seq: e.seq, data: obj<QuestionAnsweredData>(e.data) })
      break
    case 'completion.checked':
      mark(it, { kind: 'completion', seq: e.seq, data: obj<CompletionCheckedData>(e.data) })
      break
  }
  return it
}

/**
 * resultShown is what a call's card prints as its result: what the model
 * saw, unless that only says again what the card says above it. An invalid
 * call's reason has its own line and came back to the model as "Error:
 * <reason>"; a denied call's reason is in its approval line and came back
 * inside the denial's words to the model (the next request shows them).
 */
export function resultShown(c: Pick<CallView, 'status' | 'result' | 'error' | 'invalidReason' | 'approval'>): string {
  const seen = c.result || c.error
  if (c.status === 'denied' && c.approval?.decision === 'deny') return ''
  if (c.invalidReason && (seen === c.invalidReason || seen === `Error: ${c.invalidReason}`)) return ''
  return seen
}
